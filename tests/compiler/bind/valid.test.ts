// Valid GSQL files bind with no diagnostics at all.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { check } from "./helpers.js";
import { formatDiagnosticText } from "../../../compiler/diagnostics/index.js";

// Tests run from dist/; the .gsql inputs stay next to the sources.
const here = dirname(fileURLToPath(import.meta.url));
export const SOURCE_DIR = join(here, "..", "..", "..", "..", "tests", "compiler", "bind");

describe("bind: valid files give no diagnostics", () => {
  for (const f of readdirSync(join(SOURCE_DIR, "valid")).filter((x) => x.endsWith(".gsql")).sort()) {
    it(f, () => {
      const text = readFileSync(join(SOURCE_DIR, "valid", f), "utf8");
      const { diagnostics } = check(text, f);
      expect(diagnostics.map((d) => formatDiagnosticText(d, text))).to.deep.equal([]);
    });
  }
});
