// Golden files of the IR stage: each golden/NAME.gsql (bound against golden/schema.gsql) is
// lowered and run through the default passes; the printed IR must equal golden/NAME.ir.
// golden-optimize/ holds the same for INSTALL QUERY -OPTIMIZE's passes (level 3), one file
// per pass. Regenerate after an intended change with UPDATE_GOLDEN=1.
import { expect } from "chai";
import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { analyzeSource } from "../../../compiler/front-end.js";
import { lower } from "../../../compiler/ir/lower.js";
import { printIr } from "../../../compiler/ir/print-ir.js";
import { optimizeIr } from "../../../compiler/passes/optimize.js";

// Golden files live in the source tree, next to this test's TypeScript source.
const here = fileURLToPath(new URL(".", import.meta.url)).replace(/\/dist\//, "/");
const schemaText = readFileSync(join(here, "golden", "schema.gsql"), "utf8");

for (const [folder, level] of [["golden", 1], ["golden-optimize", 3]] as const)
describe(`IR golden files in ${folder} (lower + level ${level} passes, printed)`, () => {
  const dir = join(here, folder);
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".gsql") && f !== "schema.gsql").sort()) {
    it(file, () => {
      const text = readFileSync(join(dir, file), "utf8");
      const fe = analyzeSource(schemaText + "\n" + text, file);
      expect(fe.log.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).to.deep.equal([]);
      const ir = optimizeIr(lower(fe.bound!.queries[0]), level);
      const printed = printIr(ir);
      const goldenPath = join(dir, file.replace(/\.gsql$/, ".ir"));
      if (process.env.UPDATE_GOLDEN === "1" || !existsSync(goldenPath)) writeFileSync(goldenPath, printed);
      expect(printed).to.equal(readFileSync(goldenPath, "utf8"));
    });
  }
});
