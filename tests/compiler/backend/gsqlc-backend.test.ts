// `gsqlc compile | ir | wat` as a user runs them: a subprocess on GSQL files.
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const gsqlc = fileURLToPath(new URL("../../../tools/cli/gsqlc.js", import.meta.url));
const golden = join(fileURLToPath(new URL(".", import.meta.url)).replace(/\/dist\//, "/"), "golden");

function run(args: string[]) {
  return spawnSync(process.execPath, [gsqlc, ...args], { encoding: "utf8" });
}

describe("gsqlc compile / ir / wat", function () {
  this.timeout(30000);
  const dir = mkdtempSync(join(tmpdir(), "gsqlc-"));

  it("compile writes a valid module and its manifest per query", async () => {
    const r = run(["compile", "--schema", join(golden, "schema.gsql"), "-O2", "-o", dir + "/", join(golden, "having.gsql")]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^having_total: .*having_total\.wasm \(\d+ bytes, -O2\)/);
    const bytes = readFileSync(join(dir, "having_total.wasm"));
    expect(WebAssembly.validate(bytes)).to.equal(true);
    const manifest = JSON.parse(readFileSync(join(dir, "having_total.manifest.json"), "utf8"));
    expect(manifest.params).to.deep.equal([{ name: "k", type: { base: "INT" }, default: "2" }]);
    expect(manifest.keys).to.include.members(["R", "@@total", "R.@in"]);
  });

  it("ir prints the IR after the passes; wat prints the module text", () => {
    const ir = run(["ir", "--schema", join(golden, "schema.gsql"), join(golden, "having.gsql")]);
    expect(ir.status).to.equal(0);
    expect(ir.stdout).to.equal(readFileSync(join(golden, "having.ir"), "utf8"));
    const wat = run(["wat", "--schema", join(golden, "schema.gsql"), join(golden, "having.gsql")]);
    expect(wat.status).to.equal(0);
    expect(wat.stdout).to.contain(";; query having_total").and.to.contain('(import "graph" "memory"').and.to.contain("(export \"run\"");
  });

  it("reports errors with positions and exits 1; bad options exit 2", () => {
    const bad = join(dir, "bad.gsql");
    writeFileSync(bad, "CREATE QUERY b() FOR GRAPH G { PRINT nosuch; }\n");
    const r = run(["compile", "--schema", join(golden, "schema.gsql"), bad]);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/bad\.gsql:1:\d+: error GSQL\d+/);
    expect(existsSync(join(dir, "b.wasm"))).to.equal(false);
    expect(run(["compile", "-O7", bad]).status).to.equal(2);
  });
});
