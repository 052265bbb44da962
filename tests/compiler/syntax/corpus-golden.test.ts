// Golden tests for the parse and AST stages: every tests/compiler/corpus/X.gsql must parse
// with no diagnostics, and its AST dump must equal X.ast.json exactly.
// Regenerate the goldens with `UPDATE_GOLDEN=1 npm test` (then review the diff).
import { expect } from "chai";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "../../../compiler/parse/parse.js";
import { buildAst } from "../../../compiler/ast/build-ast.js";
import { dumpAst } from "../../../compiler/ast/dump.js";
import { DiagnosticLog } from "../../../compiler/diagnostics/diagnostic-log.js";
import { formatDiagnosticText } from "../../../compiler/diagnostics/printer.js";

// Tests run from dist/tests/compiler/syntax; the corpus stays in the source tree.
const corpusDir = fileURLToPath(new URL("../../../../tests/compiler/corpus/", import.meta.url));
const update = process.env.UPDATE_GOLDEN === "1";

describe("GSQL corpus: parse + AST goldens", () => {
  const files = readdirSync(corpusDir).filter((f) => f.endsWith(".gsql")).sort();

  it("has a corpus to check", () => {
    expect(files.length).to.be.greaterThan(10);
  });

  for (const file of files) {
    it(`${file} parses cleanly and matches its AST golden`, () => {
      const text = readFileSync(join(corpusDir, file), "utf8");
      const log = new DiagnosticLog();
      const parsed = parse(text, file, log);
      const ast = buildAst(parsed, log);
      expect(log.sorted().map((d) => formatDiagnosticText(d, text))).to.deep.equal([]);
      // Valid GSQL should never need the slow full-LL pass (a grammar decision SLL cannot make would show here).
      expect(parsed.usedFullLL, "needed the full-LL pass").to.equal(false);
      const dump = dumpAst(ast);
      const golden = join(corpusDir, file.replace(/\.gsql$/, ".ast.json"));
      if (update) writeFileSync(golden, dump);
      else expect(dump, `AST of ${file} differs from its golden (UPDATE_GOLDEN=1 regenerates)`).to.equal(readFileSync(golden, "utf8"));
    });
  }
});
