// Every algorithm-library query and every corpus query compiles at -O3 (INSTALL QUERY
// -OPTIMIZE) to the optimised module, not the unoptimised fallback the back end keeps when
// Binaryen's optimiser returns an invalid module; and the emitted code is a tree (no
// expression node used twice), which Binaryen's in-place rewriting passes rely on.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeSource } from "../../../compiler/front-end.js";
import { compileQuery } from "../../../compiler/back-end.js";
import { WasmModule } from "../../../compiler/emit/module.js";
import { ALGORITHMS, renderQuery } from "../../../tools/algorithms/library.js";
import { choices, DDL } from "../../algorithms/algo-harness.js";
import { SOURCE_DIR } from "../bind/valid.test.js";

const CORPUS = join(SOURCE_DIR, "..", "corpus");

describe("back end: -O3 modules are optimised, from tree-shaped code", function () {
  this.timeout(120000);
  const shared: string[] = [];
  const original = { optimize: WasmModule.prototype.optimize, inline: WasmModule.prototype.inlineSmallFunctions };
  before(() => {
    WasmModule.prototype.optimize = function (this: WasmModule, level) {
      shared.push(...this.sharedExpressions());
      original.optimize.call(this, level);
    };
    WasmModule.prototype.inlineSmallFunctions = function (this: WasmModule, maxSize) {
      shared.push(...this.sharedExpressions());
      original.inline.call(this, maxSize);
    };
  });
  after(() => {
    WasmModule.prototype.optimize = original.optimize;
    WasmModule.prototype.inlineSmallFunctions = original.inline;
  });
  beforeEach(() => {
    shared.length = 0;
  });

  const schema = analyzeSource(DDL, "schema.gsql");
  for (const a of ALGORITHMS) {
    for (const variant of a.variants) {
      it(`${a.name} (${variant})`, () => {
        const c = choices("both", { result: a.name.startsWith("conn") || a.name.startsWith("label") || a.name.startsWith("louvain") ? "label" : "score", dist: "wdist", path: "path", edge: "Similar", edgeAttr: "score" });
        const text = [...a.helpers.map((h) => renderQuery(ALGORITHMS.find((x) => x.name === h)!, "stream", c)), renderQuery(a, variant, c)].join("\n");
        const fe = analyzeSource(text, "library.gsql", { schema: schema.ast });
        expect(fe.log.hasErrors(), text).to.equal(false);
        const queries = fe.bound!.queries;
        const out = compileQuery(queries[queries.length - 1]!, fe.bound!.schema, 3, false, queries);
        expect(out.optimizerFailure).to.equal(undefined);
        expect(shared).to.deep.equal([]);
      });
    }
  }

  const corpusSchema = analyzeSource(readFileSync(join(CORPUS, "00-schema.gsql"), "utf8"), "00-schema.gsql");
  for (const f of readdirSync(CORPUS).filter((x) => x.endsWith(".gsql") && x !== "00-schema.gsql").sort()) {
    it(`corpus ${f}`, () => {
      const fe = analyzeSource(readFileSync(join(CORPUS, f), "utf8"), f, { schema: corpusSchema.ast });
      for (const q of fe.bound?.queries ?? []) {
        let out;
        try {
          out = compileQuery(q, fe.bound!.schema, 3, false, fe.bound!.queries);
        } catch {
          continue; // the constructs corpus-compiles.test.ts lists as not compiled yet
        }
        expect(out.optimizerFailure, q.name).to.equal(undefined);
      }
      expect(shared).to.deep.equal([]);
    });
  }
});
