// Wrong inputs: each tests/compiler/syntax-errors/X.gsql names on its first line, after
// "expect:", every diagnostic it must produce as CODE@line:column, and nothing else.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { analyzeSource } from "../../../compiler/front-end.js";

const casesDir = fileURLToPath(new URL("../../../../tests/compiler/syntax-errors/", import.meta.url));

describe("GSQL syntax errors: code and position", () => {
  const files = readdirSync(casesDir).filter((f) => f.endsWith(".gsql")).sort();

  it("has at least 25 cases", () => {
    expect(files.length).to.be.at.least(25);
  });

  for (const file of files) {
    it(file, () => {
      const text = readFileSync(join(casesDir, file), "utf8");
      const header = /expect:\s*(.*)$/m.exec(text.split("\n", 1)[0]!);
      expect(header, `${file} needs "expect: CODE@line:col ..." on its first line`).to.not.equal(null);
      const expected = header![1]!.trim().split(/\s+/);
      const result = analyzeSource(text, file, { astOnly: true });
      const actual = result.log.sorted().map((d) => `${d.code}@${d.range.start.line}:${d.range.start.column}`);
      expect(actual).to.deep.equal(expected);
      expect(result.log.diagnostics.every((d) => d.severity === "error")).to.equal(true);
    });
  }
});
