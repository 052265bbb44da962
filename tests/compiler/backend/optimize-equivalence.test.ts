// INSTALL QUERY -OPTIMIZE must not change what a query prints. Every algorithm of the library
// (stream and attr variants, with its helper queries) runs on seeded random graphs, compiled
// at the default level and at -OPTIMIZE's (3); the printed results and the attributes the
// attr variants write must be identical. (The query-case files also run at both levels, each
// against its exact expected output: tests/runtime-wasm/cases/query-cases.test.ts.)
// Also: every corpus query that compiles at the default level compiles at -OPTIMIZE too.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeSource } from "../../../compiler/front-end.js";
import { compileQuery } from "../../../compiler/back-end.js";
import { ALGORITHMS, renderQuery } from "../../../tools/algorithms/library.js";
import type { Variant } from "../../../tools/algorithms/render.js";
import type { QueryArgument } from "../../../runtime-wasm/query/query-runtime.js";
import type { ManifestParam } from "../../../runtime-wasm/query/manifest.js";
import { attributes, choices, closeSharedRuntime, edgesOf, id, load, randomGraph, type TestGraph } from "../../algorithms/algo-harness.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { compileGsql, sharedRuntime } from "../../runtime-wasm/queries/gsql-harness.js";
import { SOURCE_DIR } from "../bind/valid.test.js";

const CORPUS = join(SOURCE_DIR, "..", "corpus");

/** Arguments for a library query's parameters: a start vertex, defaults, and 5 for the rest. */
function argumentsFor(params: ManifestParam[], start: number): QueryArgument[] {
  return params.map((p) => {
    if (p.type.base === "VERTEX") return { id: id(start) };
    if (p.default !== undefined) return undefined;
    return p.type.base === "INT" ? 5n : p.type.base === "BOOL" ? false : 5;
  });
}

/** Equal structures whose non-integer numbers agree to 1e-9 relative (integers exactly). */
function withinRounding(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return Number.isInteger(a) && Number.isInteger(b) ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => withinRounding(x, b[i]));
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && withinRounding((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

const SLOTS = { result: "label", dist: "dist", path: "path", edge: "Similar", edgeAttr: "score" };
const SCORE_SLOTS = { ...SLOTS, result: "score" };

describe("back end: -OPTIMIZE gives the same results as the default install", function () {
  this.timeout(120000);
  after(closeSharedRuntime);

  // a sparse and a denser graph, with weights 1..9; loaded afresh for each run, so what
  // the attr variants write at one level cannot show up in the other's
  const weights = (seed: number) => {
    const rnd = mulberry32(seed);
    return () => 1 + Math.floor(rnd() * 9);
  };
  const graphs: TestGraph[] = [randomGraph(11, 24, 40, weights(1)), randomGraph(12, 16, 60, weights(2))];

  for (const a of ALGORITHMS.filter((x) => x.menu !== undefined)) {
    for (const variant of a.variants.filter((v): v is Variant => v === "stream" || v === "attr")) {
      it(`${a.name} (${variant})`, async () => {
        const integerResult = a.name.startsWith("conn") || a.name.startsWith("label") || a.name.startsWith("louvain");
        const c = choices("both", integerResult ? SLOTS : SCORE_SLOTS);
        const text = [...a.helpers.map((h) => renderQuery(ALGORITHMS.find((x) => x.name === h)!, "stream", c)), renderQuery(a, variant, c)].join("\n");
        for (const g of graphs) {
          const outputs: unknown[] = [];
          for (const level of [1, 3] as const) {
            const l = load(g);
            const q = await compileGsql(l.db, text, level);
            const r = await sharedRuntime().run(l.db.store, l.db.graph, q, argumentsFor(q.manifest.params, 3), { timeoutMs: 30000 });
            if (!r.ok) throw new Error(`-O${level}: ${r.kind}: ${r.message}`);
            // the attr variants' writes are applied when the run ends: read them back
            const written = variant === "attr" ? [...["score", "label", "dist", "wdist", "path"].map((s) => attributes(l, s)), edgesOf(l, "Similar", "score")] : [];
            outputs.push({ results: JSON.parse(r.results) as unknown, written });
          }
          // with every eligible SELECT split (WASMGRAPH_PARALLEL_FORCE=1), which thread adds which
          // terms of a floating-point sum depends on timing: scores then agree within rounding
          if (process.env.WASMGRAPH_PARALLEL_FORCE === "1" && withinRounding(outputs[1], outputs[0])) continue;
          expect(outputs[1]).to.deep.equal(outputs[0]);
        }
      });
    }
  }

  const corpusSchema = analyzeSource(readFileSync(join(CORPUS, "00-schema.gsql"), "utf8"), "00-schema.gsql");
  for (const f of readdirSync(CORPUS).filter((x) => x.endsWith(".gsql") && x !== "00-schema.gsql").sort()) {
    it(`corpus ${f}: every query that compiles by default compiles at -OPTIMIZE`, () => {
      const fe = analyzeSource(readFileSync(join(CORPUS, f), "utf8"), f, { schema: corpusSchema.ast });
      const compiles = (level: 1 | 3) =>
        (fe.bound?.queries ?? []).map((q) => {
          try {
            compileQuery(q, fe.bound!.schema, level, false, fe.bound!.queries);
            return `${q.name}: compiles`;
          } catch (e) {
            return `${q.name}: ${(e as Error).message}`;
          }
        });
      expect(compiles(3)).to.deep.equal(compiles(1));
    });
  }
});
