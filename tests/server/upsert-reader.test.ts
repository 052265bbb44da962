// The upsert body reader that builds the store's form directly (upsert-reader.ts) against the
// item path it replaces (upsert-body.ts, then upsert-convert.ts), on hand-picked and generated
// bodies, valid and not: the same store items in the same order, or the same error.
import { expect } from "chai";
import { mulberry32 } from "../../tools/bench/rmat.js";
import type { Engine, GraphHandle } from "../../server/engine/engine.js";
import { upsertBatchFromText } from "../../server/engine/upsert-reader.js";
import { upsertItemsFromText } from "../../server/engine/upsert-body.js";
import { upsertBatchOfItems } from "../../server/engine/upsert-convert.js";
import { socialEngine } from "./graph-fixture.js";

type Outcome = { batch: unknown } | { error: string };

/** The body read straight into store form and through the item path, at a nesting limit (8 by default). */
function both(engine: Engine, graph: GraphHandle, text: string, maxDepth = 8): [Outcome, Outcome] {
  const tuples = engine.schema.tuples;
  const run = (read: () => unknown): Outcome => {
    try {
      return { batch: read() };
    } catch (e) {
      return { error: `${(e as Error).name}: ${(e as Error).message}` };
    }
  };
  return [run(() => upsertBatchFromText(text, graph, tuples, { maxDepth })), run(() => upsertBatchOfItems(graph, tuples, upsertItemsFromText(text, { maxDepth })))];
}

describe("upsert body reader: straight into the store's form", () => {
  const engine = socialEngine();
  const graph = engine.resolveGraph("social");

  it("reads a body as the item path does: types by key, converted values, edge groups by run", () => {
    const text =
      '{"vertices":{"Person":{"a":{"age":{"value":5},"nosuch":{"value":"x","op":"+"}},"a":{"age":{"value":1,"op":"add"}},"b":{},"c":{"score":{"value":1.5},"tags":{"value":["x","x"]}}},"City":{"7":{"population":{"value":18446744073709551615}}},"Nope":{}},' +
      '"edges":{"Person":{"a":{"follows":{"Person":{"b":{"weight":{"value":2}},"b":{},"c":{}}},"knows":{"Person":{"c":{}}}},"b":{"knows":{"Person":{"c":{"strength":{"value":1}}}},"follows":{"Person":{}}},"c":{"knows":{"Person":{"a":{}}},"reverse_follows":{"Person":{"a":{}}}}}}}';
    const [fast, items] = both(engine, graph, text);
    expect(fast).to.deep.equal(items);
    const batch = (fast as { batch: ReturnType<typeof upsertBatchFromText> }).batch;
    expect(batch.vertices.map((v) => v.id)).to.deep.equal(["a", "a", "b", "c", "7"]);
    expect(batch.vertices[0]!.attributes).to.deep.equal([{ name: "age", value: 5n, op: "=" }]);
    expect(batch.vertices[4]!.attributes).to.deep.equal([{ name: "population", value: 18446744073709551615n, op: "=" }]);
    // follows a→b, b, c | knows a→c, b→c, c→a (one run across sources) | reverse_follows c→a
    expect(batch.edgeColumns.map((g) => [g.type, g.from, g.to])).to.deep.equal([
      ["follows", ["a", "a", "a"], ["b", "b", "c"]],
      ["knows", ["a", "b", "c"], ["c", "c", "a"]],
      ["reverse_follows", ["c"], ["a"]],
    ]);
    expect(batch.edgeColumns[0]!.attributes).to.deep.equal([[{ name: "weight", value: 2, op: "=" }], undefined, undefined]);
  });

  it("gives the item path's error for every kind of bad body, whatever comes first in the text", () => {
    const bad = [
      '{"vertices":{"Person":{"a":{"age":{"value":"x"}}}}}',
      '{"edges":{"Person":{"a":{"knows":{"City":{"1":{}}}}}},"vertices":{"Person":{"a":{"age":{"value":"x"}}}}}',
      '{"edges":{"Person":{"a":{"nope":{"Person":{"b":{}}}}}}}',
      '{"edges":{"Nope":{"a":{"knows":{"Person":{"b":{}}}}}}}',
      '{"edges":{"Person":{"a":{"knows":{"Nope":{"b":{}}}}}}}',
      '{"vertices":{"Nope":{"a":{}}}}',
      '{"vertices":{"Person":{"a":{"age":{"value":1,"op":"times"}}}}}',
      '{"vertices":{"Person":{"a":{"nosuch":{"value":1,"op":"times"}}}}}',
      '{"vertices":{"Person":{"a":{"age":{"op":"+"}}}}}',
      '{"vertices":{"Person":{"a":{"age":5}}}}',
      '{"vertices":{"Person":{"a":{"age":{"value":"x"}},"b":{"age":{"value":1,"op":7}}}}}',
      '{"vertices":{"Person":{"a":{"age":{"value":"x"}}}},"other":1}',
      '{"vertices":{"Person":{"a":{"age":{"value":"x"}}}}',
      '{"vertices":{"Person":{"a":{"age":{"value":[[[[[[[[1]]]]]]]]}}}}}',
      '{"vertices":[]}',
      "[]",
      "",
      '{"vertices":{"Person":{"a":{}}}} trailing',
    ];
    for (const text of bad) {
      const [fast, items] = both(engine, graph, text);
      expect(fast, text).to.have.property("error");
      expect(fast, text).to.deep.equal(items);
    }
  });

  it("agrees with the item path on generated bodies, valid and not", () => {
    const random = mulberry32(2024);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const values = ["1", "-3", "9223372036854775808", "1.5", '"x"', "true", '["a","b"]', '{"keylist":["k"],"valuelist":[1]}', '"2020-01-01 00:00:00"', "null", "[1,[2]]"];
    const attribute = () => `"${pick(["age", "score", "name", "active", "tags", "prefs", "weight", "strength", "since", "population", "zz"])}":` + (random() < 0.05 ? "3" : `{"value":${pick(values)}${random() < 0.3 ? `,"op":"${pick(["+", "add", "max", "<", "bad", "overwrite"])}"` : ""}}`);
    const attributes = () => `{${Array.from({ length: Math.floor(random() * 3) }, attribute).join(",")}}`;
    const object = (n: number, entry: () => string) => `{${Array.from({ length: n }, entry).join(",")}}`;
    const id = () => `"${pick(["a", "b", "c", "1", "7", "x y"])}"`;
    const vertices = () => object(2, () => `"${pick(["Person", "Person", "City", "Nope"])}":${object(Math.floor(random() * 4), () => `${id()}:${attributes()}`)}`);
    const edges = () =>
      object(2, () => `"${pick(["Person", "City", "Nope"])}":${object(2, () => `${id()}:${object(2, () => `"${pick(["knows", "follows", "reverse_follows", "lives_in", "nope"])}":${object(2, () => `"${pick(["Person", "City"])}":${object(Math.floor(random() * 3), () => `${id()}:${attributes()}`)}`)}`)}`)}`);
    let valid = 0;
    for (let round = 0; round < 400; round++) {
      const parts = [];
      if (random() < 0.7) parts.push(`"vertices":${vertices()}`);
      if (random() < 0.7) parts.push(`"edges":${edges()}`);
      if (random() < 0.03) parts.push(`"extra":{}`);
      let text = `{${parts.join(",")}}`;
      if (random() < 0.05) text = text.slice(0, Math.floor(random() * text.length));
      const [fast, items] = both(engine, graph, text);
      expect(fast, text).to.deep.equal(items);
      if ("batch" in fast) valid++;
    }
    // Both kinds were generated in numbers.
    expect(valid).to.be.within(40, 360);
  });

  it("agrees with the item path with white space between tokens and at every nesting limit", () => {
    const random = mulberry32(77);
    const body =
      '{"vertices":{"Person":{"a":{"age":{"value":5}},"b":{}}},"edges":{"Person":{"a":{"follows":{"Person":{"b":{},"c":{"weight":{"value":2}},"b":{}}},"knows":{"Person":{}}},' +
      '"b":{"knows":{"Person":{"c":{"strength":{"value":1,"op":"+"}},"a":{}}}}}}}';
    // White space after structural characters outside strings, where JSON allows it.
    const spaced = (text: string) => {
      let out = "";
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        out += c;
        if (inString) {
          if (c === "\\") out += text[++i]!;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if ("{}:,".includes(c) && random() < 0.5) out += pickSpace();
      }
      return out;
    };
    const pickSpace = () => [" ", "\n", "\t ", "\r\n  "][Math.floor(random() * 4)]!;
    let valid = 0;
    for (let round = 0; round < 60; round++) {
      const text = round === 0 ? body : spaced(body);
      for (const maxDepth of [5, 6, 7, 8, 9]) {
        const [fast, items] = both(engine, graph, text, maxDepth);
        expect(fast, `${maxDepth}: ${text}`).to.deep.equal(items);
        if ("batch" in fast) valid++;
        // An edge attribute's {"value": …} object is the 8th level: every lower limit refuses the body.
        expect("batch" in fast, `${maxDepth}: ${text}`).to.equal(maxDepth >= 8);
      }
    }
    expect(valid).to.equal(120);
  });
});
