// INSTALL latency of the whole algorithm library: every algorithm of tools/algorithms in every
// variant (stream, file, attr), rendered for one graph, then installed the way INSTALL QUERY
// ALL does it: bind, then per query the back end at the default level and WebAssembly.compile.
import { analyzeSource } from "../../compiler/front-end.js";
import { compileQuery } from "../../compiler/back-end.js";
import { ALGORITHMS, renderQuery } from "../algorithms/library.js";
import type { RenderChoices } from "../algorithms/render.js";

const DDL = `
CREATE VERTEX V (PRIMARY_ID id UINT, score DOUBLE, label INT, path STRING)
CREATE DIRECTED EDGE E (FROM V, TO V, w DOUBLE) WITH REVERSE_EDGE="E_rev"
CREATE DIRECTED EDGE Similar (FROM V, TO V, score DOUBLE)
CREATE GRAPH L (V, E, E_rev, Similar)
`;

/** The attribute or edge type each `_attr` slot writes to on the schema above. */
function slotTarget(kind: string, types: string[]): string {
  if (kind === "edgeType") return "Similar";
  if (kind === "edgeAttr") return "score";
  if (types.includes("STRING")) return "path";
  return types.includes("DOUBLE") ? "score" : "label";
}

export interface LibraryInstall {
  queries: number;
  /** Binding every query (one front-end pass over the rendered library). */
  bindMs: number;
  /** Back end + WebAssembly.compile of every query, in sequence. */
  compileMs: number;
  /** The slowest query and its time. */
  slowest: { name: string; ms: number };
}

export async function installLibrary(): Promise<LibraryInstall> {
  const texts: string[] = [];
  for (const a of ALGORITHMS) {
    const slots = Object.fromEntries(a.slots.map((s) => [s.name, slotTarget(s.kind, s.types)]));
    const choices: RenderChoices = { graph: "L", vertexTypes: ["V"], edgeTypes: [{ name: "E", directed: true }], weightAttribute: "w", slots };
    for (const variant of a.variants) texts.push(renderQuery(a, variant, choices));
  }
  const t0 = performance.now();
  const fe = analyzeSource(DDL + "\n" + texts.join("\n"), "library.gsql");
  const errors = fe.log.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`the library does not bind: ${errors[0].message}`);
  const queries = fe.bound!.queries;
  const t1 = performance.now();
  let slowest = { name: "", ms: 0 };
  for (const q of queries) {
    const s = performance.now();
    const compiled = compileQuery(q, fe.bound!.schema, 1, false, queries);
    await WebAssembly.compile(compiled.bytes as Uint8Array<ArrayBuffer>);
    const ms = performance.now() - s;
    if (ms > slowest.ms) slowest = { name: q.name, ms };
  }
  return { queries: queries.length, bindMs: t1 - t0, compileMs: performance.now() - t1, slowest };
}
