// The `gsql` shell as a subprocess against a real server: file mode, command mode, piped
// interactive mode (BEGIN ... END, errors do not end it), @file inlining, exit codes.
import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShell, startGsqlServer, SOCIAL_SCHEMA, type GsqlTestServer } from "./gsql-helpers.js";

describe("gsql shell (subprocess)", function () {
  this.timeout(30_000);
  let s: GsqlTestServer;
  let dir: string;
  let host: string[];
  before(async () => {
    s = await startGsqlServer();
    dir = mkdtempSync(join(tmpdir(), "gsql-shell-"));
    host = ["--host", s.gsqlUrl];
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs a file and exits 0", async () => {
    const file = join(dir, "schema.gsql");
    writeFileSync(file, SOCIAL_SCHEMA);
    const r = await runShell([...host, file], "", dir);
    expect(r.stdout).to.equal([
      "Successfully created vertex types: [Person].",
      "Successfully created vertex types: [City].",
      "Successfully created edge types: [Friendship].",
      "Successfully created edge types: [Lives].",
      "Successfully created reverse edge types: [Lives_rev].",
      "The graph Social is created.",
      "",
    ].join("\n"));
    expect(r.code).to.equal(0);
  });

  it("runs a command given as arguments, with -g for the graph", async () => {
    const r = await runShell([...host, "-g", "Social", "SHOW", "GRAPH", "*"], "", dir);
    expect(r.stdout).to.equal("  - Graph Social(Person:v, City:v, Friendship:e, Lives:e, Lives_rev:e)\n");
    expect(r.code).to.equal(0);
  });

  it("exits non-zero with the server's return code when a command fails", async () => {
    const r = await runShell([...host, "USE GRAPH Nowhere"], "", dir);
    expect(r.stdout).to.equal("Graph 'Nowhere' does not exist.\n");
    expect(r.code).to.equal(212);
    const noGraph = await runShell([...host, "-c", "INSTALL", "QUERY", "*"], "", dir);
    expect(noGraph.code).to.equal(213);
  });

  it("piped interactive mode: one line per command, BEGIN ... END blocks, errors do not stop it", async () => {
    const input = [
      "USE GRAPH Social",
      "  ",
      "this is not gsql",
      "BEGIN",
      "CREATE QUERY greet(STRING who) FOR GRAPH Social {",
      "  PRINT who;",
      "}",
      "END",
      "BEGIN",
      "CREATE QUERY discarded() FOR GRAPH Social { PRINT 1; }",
      "ABORT",
      "SHOW QUERY greet",
      "exit",
      "ls",
    ].join("\n");
    const r = await runShell(host, input, dir);
    const lines = r.stdout.split("\n");
    expect(lines[0]).to.equal("Using graph 'Social'");
    expect(lines[1]).to.equal('Encountered "this" at line 1, column 1.');
    expect(lines).to.include("Successfully created queries: [greet].");
    expect(r.stdout).to.include("CREATE QUERY greet(STRING who) FOR GRAPH Social {\n  PRINT who;\n}\n");
    expect(r.stdout).not.to.include("discarded");
    expect(r.stdout).not.to.include("---- Graph");
    expect(r.code).to.equal(0);
  });

  it("inlines @file lines, reports a missing file, and stops an endless include", async () => {
    writeFileSync(join(dir, "inner.gsql"), "USE GRAPH Social\nSHOW VERTEX City\n");
    writeFileSync(join(dir, "outer.gsql"), "@inner.gsql\n@missing.gsql\n");
    const r = await runShell([...host, "outer.gsql"], "", dir);
    expect(r.stdout).to.equal([
      'File "missing.gsql" does not exist!',
      "Using graph 'Social'",
      '  - VERTEX City(PRIMARY_ID id STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE", PRIMARY_ID_AS_ATTRIBUTE="true"',
      "",
    ].join("\n"));
    writeFileSync(join(dir, "loop.gsql"), "ls\n@loop.gsql\n");
    const loop = await runShell([...host, "loop.gsql"], "", dir);
    expect(loop.stdout).to.equal("There is an endless loop by using @loop.gsql cmd recursively.\n");
    expect(loop.code).to.not.equal(0);
  });

  it("connection refused exits 202; bad arguments exit 201", async () => {
    const refused = await runShell(["--host", "http://127.0.0.1:1", "ls"], "", dir);
    expect(refused.code).to.equal(202);
    expect(refused.stdout.split("\n")[0]).to.equal("Connection refused.");
    const bad = await runShell(["--no-such-flag"], "", dir);
    expect(bad.code).to.equal(201);
    const both = await runShell(["-u", "a", "-s", "secret", "ls"], "", dir);
    expect(both.code).to.equal(201);
  });
});
