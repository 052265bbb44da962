// `gsqlc check` as a CI step: a subprocess over a folder, its exit code, text and JSON output.
import { expect } from "chai";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SOURCE_DIR } from "./valid.test.js";

const GSQLC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "tools", "cli", "gsqlc.js");
const CORPUS = join(SOURCE_DIR, "..", "corpus");

function gsqlc(args: string[]) {
  const r = spawnSync(process.execPath, [GSQLC, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("gsqlc check: schema-aware checking of a folder", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "gsqlc-check-"));
    mkdirSync(join(dir, "queries"));
    writeFileSync(join(dir, "schema.gsql"), `CREATE VERTEX P (PRIMARY_ID id STRING, name STRING, age INT)
CREATE DIRECTED EDGE Knows (FROM P, TO P)
CREATE GRAPH G (*)
`);
    writeFileSync(join(dir, "queries", "good.gsql"), `CREATE QUERY older(INT n) FOR GRAPH G RETURNS (INT) {
  S = {P.*};
  S = SELECT s FROM S:s WHERE s.age > n;
  RETURN S.size();
}
CREATE QUERY caller() FOR GRAPH G {
  PRINT older(30) AS n;
}
`);
    writeFileSync(join(dir, "queries", "bad.gsql"), `CREATE QUERY bad() FOR GRAPH G {
  S = {P.*};
  S = SELECT s FROM S:s WHERE s.agee > 3;
  PRINT nosuch(1);
}
`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("the corpus checks clean: exit 0", () => {
    // The schema file sits in the folder and is checked once; every corpus file counts.
    const files = readdirSync(CORPUS).filter((f) => f.endsWith(".gsql")).length;
    expect(files).to.be.greaterThan(10);
    const r = gsqlc(["check", "--schema", join(CORPUS, "00-schema.gsql"), CORPUS]);
    expect(r.stdout.trim().split("\n").pop()).to.equal(`${files} files checked: 0 errors, 0 warnings`);
    expect(r.code).to.equal(0);
  });

  it("a folder with a bad file: exit 1, every error with file:line:col in text form", () => {
    const r = gsqlc(["check", "--schema", join(dir, "schema.gsql"), join(dir, "queries")]);
    expect(r.code).to.equal(1);
    const lines = r.stdout.split("\n").filter((l) => / (error|warning) GSQL/.test(l));
    expect(lines).to.deep.equal([
      `${join(dir, "queries", "bad.gsql")}:3:33: error GSQL2004: 'agee' is not an attribute of vertex type P`,
      `${join(dir, "queries", "bad.gsql")}:4:9: error GSQL2010: 'nosuch' is not a built-in function, a tuple type or a query of graph 'G' (a sub-query must be created before its caller)`,
    ]);
    expect(r.stdout.trim().split("\n").pop()).to.equal("3 files checked: 2 errors, 0 warnings");
  });

  it("--format json lists the diagnostics for CI tools", () => {
    const r = gsqlc(["check", "--format", "json", "--schema", join(dir, "schema.gsql"), join(dir, "queries")]);
    expect(r.code).to.equal(1);
    const report = JSON.parse(r.stdout);
    expect(report).to.deep.include({ files: 3, errors: 2, warnings: 0 });
    expect(report.diagnostics.map((d: { code: string; line: number; column: number }) => [d.code, d.line, d.column]))
      .to.deep.equal([["GSQL2004", 3, 33], ["GSQL2010", 4, 9]]);
  });

  it("without --schema a file brings its own DDL; queries may call earlier queries", () => {
    const file = join(dir, "whole.gsql");
    writeFileSync(file, `CREATE VERTEX P (PRIMARY_ID id STRING, age INT)
CREATE GRAPH G (P)
CREATE QUERY sub(INT k) FOR GRAPH G RETURNS (INT) { RETURN k + 1; }
CREATE QUERY main() FOR GRAPH G { PRINT sub(1) AS x; }
`);
    const out = execFileSync(process.execPath, [GSQLC, "check", file], { encoding: "utf8" });
    expect(out.trim()).to.equal("1 file checked: 0 errors, 0 warnings");
  });
});
