// Malformed input never crashes the store: random garbage batches, selectors and ids either
// apply (when they happen to be valid) or are refused with a StoreError that changed nothing.
import { expect } from "chai";
import { createStore, StoreError, type GraphStore } from "../../../runtime-wasm/store/index.js";
import { dumpStore } from "./dump.js";
import { socialSchema } from "./fixtures.js";
import { mulberry32 as prng } from "../../../tools/bench/rmat.js";

const ATOMS: unknown[] = [null, undefined, 0, -1, 1.5, NaN, Infinity, 2n ** 70n, -(2n ** 64n), "", "x", "Person", "City", "Knows", "age", "tags", "+", "&", "bogus", "1e400", "2020-02-30", true, false, [], {}, Symbol("s"), () => 1, new Uint8Array(3), { keylist: [1], valuelist: [] }, { __proto__: { x: 1 } }, "\u0000\uffff", "é".repeat(300)];

function garbage(rnd: () => number, depth = 0): unknown {
  const r = rnd();
  if (depth > 3 || r < 0.5) return ATOMS[Math.floor(rnd() * ATOMS.length)];
  if (r < 0.75) return Array.from({ length: Math.floor(rnd() * 4) }, () => garbage(rnd, depth + 1));
  const o: Record<string, unknown> = {};
  for (const k of ["type", "id", "from", "to", "attributes", "name", "value", "op", "fromType", "toType", "vertices", "edges", "edgeColumns", "discriminator", "where"]) if (rnd() < 0.3) o[k] = garbage(rnd, depth + 1);
  return o;
}

/** Mostly well-formed items with one part replaced by garbage, so validation gets deep. */
function nearlyValid(rnd: () => number): unknown {
  const person = () => ({ type: "Person", id: rnd() < 0.8 ? `p${Math.floor(rnd() * 5)}` : garbage(rnd) });
  const vertex = { type: rnd() < 0.9 ? "Person" : garbage(rnd), id: rnd() < 0.8 ? `p${Math.floor(rnd() * 5)}` : garbage(rnd), attributes: rnd() < 0.7 ? [{ name: rnd() < 0.8 ? "age" : garbage(rnd), value: rnd() < 0.6 ? Math.floor(rnd() * 9) : garbage(rnd), op: rnd() < 0.7 ? undefined : garbage(rnd) }] : garbage(rnd) };
  const edge = { type: rnd() < 0.8 ? "Knows" : garbage(rnd), from: rnd() < 0.9 ? person() : garbage(rnd), to: rnd() < 0.9 ? person() : garbage(rnd), attributes: rnd() < 0.8 ? undefined : garbage(rnd) };
  return { vertices: rnd() < 0.9 ? [vertex] : garbage(rnd), edges: rnd() < 0.9 ? [edge] : garbage(rnd), edgeColumns: rnd() < 0.9 ? undefined : garbage(rnd) };
}

function attempt(store: GraphStore, run: () => unknown): "ok" | "refused" {
  const before = dumpStore(store);
  try {
    run();
    return "ok";
  } catch (e) {
    if (!(e instanceof StoreError)) throw new Error(`not a StoreError: ${String(e)}`);
    expect(dumpStore(store)).to.deep.equal(before);
    return "refused";
  }
}

describe("store: malformed input (fuzz)", () => {
  it("garbage upserts, deletes and lookups are applied or refused cleanly", () => {
    const rnd = prng(7);
    const store = createStore(socialSchema());
    store.upsert({ vertices: [{ type: "Person", id: "p1" }, { type: "Person", id: "p2" }], edges: [{ type: "Knows", from: { type: "Person", id: "p1" }, to: { type: "Person", id: "p2" } }] });
    const outcomes = { ok: 0, refused: 0 };
    for (let i = 0; i < 1500; i++) {
      const pick = rnd();
      const input = rnd() < 0.5 ? garbage(rnd) : nearlyValid(rnd);
      let outcome: "ok" | "refused";
      if (pick < 0.6) outcome = attempt(store, () => store.upsert(input as never, (rnd() < 0.2 ? garbage(rnd) : undefined) as never));
      else if (pick < 0.75) outcome = attempt(store, () => store.deleteVertices(rnd() < 0.7 ? "Person" : (garbage(rnd) as string), (Array.isArray(input) ? input : [input]) as never, garbage(rnd) as never));
      else if (pick < 0.9) {
        const sourced = { ...(input !== null && typeof input === "object" ? input : {}), from: { type: "Person", id: rnd() < 0.8 ? "p1" : garbage(rnd) } };
        outcome = attempt(store, () => store.deleteEdges((Array.isArray(input) ? input : [input, sourced]) as never));
      }
      else {
        outcome = attempt(store, () =>
          store.read((s) => {
            s.lookup((rnd() < 0.7 ? "Person" : garbage(rnd)) as string, garbage(rnd) as never);
            return s.vertexCount("Person");
          }),
        );
      }
      outcomes[outcome]++;
    }
    expect(outcomes.ok).to.be.greaterThan(100);
    expect(outcomes.refused).to.be.greaterThan(100);
    expect(store.read((s) => s.vertexCount("Person"))).to.be.greaterThan(0);
  });
});
