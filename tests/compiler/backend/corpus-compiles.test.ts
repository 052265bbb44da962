// Every query of the front end's corpus goes through the whole back end (IR, passes, a
// validated WebAssembly module) at the default level and with -OPTIMIZE's level, together
// with the queries it calls from the same file. The few constructs the back end does not
// compile yet are listed with the exact error they give, so the list shrinks on purpose.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeSource } from "../../../compiler/front-end.js";
import { compileQuery } from "../../../compiler/back-end.js";
import { SOURCE_DIR } from "../bind/valid.test.js";

const CORPUS = join(SOURCE_DIR, "..", "corpus");

/** query name → the error it gives today. */
const NOT_YET: Record<string, string> = {
  accumulators: "not supported by this version of the compiler: the method bitwise.flip",
};

describe("back end: the corpus compiles", function () {
  this.timeout(60000);
  const schema = analyzeSource(readFileSync(join(CORPUS, "00-schema.gsql"), "utf8"), "00-schema.gsql");
  let compiled = 0;
  for (const f of readdirSync(CORPUS).filter((x) => x.endsWith(".gsql") && x !== "00-schema.gsql").sort()) {
    it(f, () => {
      const fe = analyzeSource(readFileSync(join(CORPUS, f), "utf8"), f, { schema: schema.ast });
      const queries = fe.bound?.queries ?? [];
      for (const q of queries) {
        for (const level of [1, 3] as const) {
          let error: string | undefined;
          try {
            const out = compileQuery(q, fe.bound!.schema, level, false, queries);
            expect(WebAssembly.validate(out.bytes as Uint8Array<ArrayBuffer>), `${q.name} -O${level}`).to.equal(true);
            compiled++;
          } catch (e) {
            error = (e as Error).message;
          }
          expect(error, `${f}: ${q.name} -O${level}`).to.equal(NOT_YET[q.name]);
        }
      }
    });
  }
  after(() => expect(compiled).to.be.greaterThan(40));
});
