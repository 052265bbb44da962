// `gsqlc` as CI uses it: a subprocess over a folder of query files, checking exit codes and
// the text and JSON output, plus `gsqlc ast` and usage errors.
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../../../tools/cli/gsqlc.js", import.meta.url));

function gsqlc(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("gsqlc", function () {
  this.timeout(20000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "gsqlc-"));
    mkdirSync(join(dir, "queries", "nested"), { recursive: true });
    writeFileSync(join(dir, "schema.gsql"), "CREATE VERTEX P (PRIMARY_ID id STRING, age INT)\nCREATE GRAPH G (P)\n");
    writeFileSync(join(dir, "queries", "good.gsql"), "CREATE QUERY good() FOR GRAPH G {\n  S = {P.*};\n  PRINT S;\n}\n");
    writeFileSync(join(dir, "queries", "nested", "also-good.gsql"), "INSTALL QUERY good\n");
    writeFileSync(join(dir, "queries", "bad.gsql"), "CREATE QUERY bad() FOR GRAPH G {\n  INT x = ;\n  PRINT x +;\n}\n");
    writeFileSync(join(dir, "queries", "notes.txt"), "not GSQL ~~~\n");
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it("checks every .gsql file of a folder (and the schema) and prints each error with its line and a caret", () => {
    const { code, stdout } = gsqlc(["check", "--schema", "schema.gsql", "queries"], dir);
    expect(code).to.equal(1);
    expect(stdout).to.equal([
      "queries/bad.gsql:2:11: error GSQL1001: unexpected ';'; expected an expression",
      "  INT x = ;",
      "          ^",
      "queries/bad.gsql:3:12: error GSQL1001: unexpected ';'; expected an expression",
      "  PRINT x +;",
      "           ^",
      "4 files checked: 2 errors, 0 warnings",
      "",
    ].join("\n"));
  });

  it("reports JSON for CI tools with --format json", () => {
    const { code, stdout } = gsqlc(["check", "--format", "json", "--schema", "schema.gsql", "queries"], dir);
    expect(code).to.equal(1);
    const report = JSON.parse(stdout);
    expect(report).to.deep.equal({
      files: 4, errors: 2, warnings: 0,
      diagnostics: [
        { file: "queries/bad.gsql", line: 2, column: 11, endLine: 2, endColumn: 12, severity: "error", code: "GSQL1001",
          message: "unexpected ';'; expected an expression" },
        { file: "queries/bad.gsql", line: 3, column: 12, endLine: 3, endColumn: 13, severity: "error", code: "GSQL1001",
          message: "unexpected ';'; expected an expression" },
      ],
    });
  });

  it("exits 0 when every file is clean", () => {
    const { code, stdout } = gsqlc(["check", "--schema", "schema.gsql", "queries/good.gsql", "queries/nested"], dir);
    expect(code).to.equal(0);
    expect(stdout).to.equal("3 files checked: 0 errors, 0 warnings\n");
  });

  it("dumps the AST as JSON with gsqlc ast", () => {
    const { code, stdout, stderr } = gsqlc(["ast", "queries/good.gsql"], dir);
    expect(code).to.equal(0);
    expect(stderr).to.equal("");
    const ast = JSON.parse(stdout);
    expect(ast.kind).to.equal("Script");
    expect(ast.statements.map((s: { kind: string }) => s.kind)).to.deep.equal(["CreateQuery"]);
    expect(ast.statements[0].name.name).to.equal("good");
  });

  it("prints diagnostics to stderr and exits 1 when gsqlc ast meets errors", () => {
    const { code, stdout, stderr } = gsqlc(["ast", "queries/bad.gsql"], dir);
    expect(code).to.equal(1);
    expect(stderr).to.contain("queries/bad.gsql:2:11: error GSQL1001");
    expect(JSON.parse(stdout).statements).to.deep.equal([]);
  });

  it("exits 2 on usage errors", function () {
    // Eight processes, each loading the back end for the full usage text: slow on a busy machine.
    this.timeout(60000);
    for (const args of [[], ["check"], ["check", "--format", "xml", "queries"], ["check", "--bogus", "queries"],
      ["check", "missing-folder"], ["ast"], ["ast", "a.gsql", "b.gsql"], ["compile-everything"]]) {
      const { code, stderr } = gsqlc(args, dir);
      expect(code, `gsqlc ${args.join(" ")}`).to.equal(2);
      expect(stderr).to.contain("usage: gsqlc");
    }
  });
});
