// Compiled query modules kept in the data directory: the file format refuses damage, prune
// keeps only what was used, and a restart installs queries from their stored modules (the
// files are read, not written again), compiling again only a module that is damaged.
import { expect } from "chai";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { decodeModuleFile, encodeModuleFile, ModuleStore } from "../../../server/persist/module-store.js";
import type { QueryManifest } from "../../../runtime-wasm/query/manifest.js";
import { startServer } from "../../../server/serve.js";
import { useTempDir } from "./temp-dir.js";

const MANIFEST = { name: "q", graph: "g", params: [], keys: ["a"], big: 9007199254740993n } as unknown as QueryManifest;
const BYTES = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);

describe("persist: compiled query modules in the data directory", function () {
  this.timeout(120_000);
  const tmp = useTempDir("data");

  it("a module file round trips; a cut or flipped byte anywhere reads as missing", () => {
    const file = encodeModuleFile({ bytes: BYTES, manifest: MANIFEST });
    const back = decodeModuleFile(file)!;
    expect([...back.bytes]).to.deep.equal([...BYTES]);
    expect(back.manifest).to.deep.equal(MANIFEST);
    for (let cut = 0; cut < file.length; cut++) expect(decodeModuleFile(file.subarray(0, cut)), `cut at ${cut}`).to.equal(undefined);
    for (let i = 4; i < file.length; i++) {
      const damaged = Buffer.from(file);
      damaged[i] ^= 0x20;
      const read = decodeModuleFile(damaged);
      // A flip inside the header's JSON text may still parse; then it must not change the module.
      if (read) expect([...read.bytes]).to.deep.equal([...BYTES]);
      if (i >= file.length - BYTES.length) expect(read, `flip at ${i}`).to.equal(undefined);
    }
  });

  it("get finds what put stored; prune removes files not used since start", async () => {
    const dir = path.join(tmp.dataDir, "modules");
    const first = new ModuleStore(dir);
    await first.put("a", { bytes: BYTES, manifest: MANIFEST });
    await first.put("b", { bytes: BYTES, manifest: MANIFEST });
    expect(await first.get("missing")).to.equal(undefined);
    const second = new ModuleStore(dir);
    expect((await second.get("a"))!.manifest).to.deep.equal(MANIFEST);
    await fsp.writeFile(path.join(dir, "leftover.tmp"), "x");
    expect(await second.prune()).to.equal(2); // b and the leftover
    expect(await new ModuleStore(dir).get("b")).to.equal(undefined);
    expect(await new ModuleStore(dir).get("a")).to.not.equal(undefined);
  });

  it("a restart installs the installed queries from their stored modules; a damaged one is compiled again", async () => {
    const quiet = { port: 0, gsqlPort: 0, dataDir: tmp.dataDir, log: () => undefined };
    const first = await startServer({ ...quiet, demo: true });
    expect(first.demo!.returnCode).to.equal(0);
    await first.close();
    const modules = path.join(tmp.dataDir, "modules");
    const files = (await fsp.readdir(modules)).sort();
    expect(files).to.have.length(4); // the demo graph's four installed queries
    const written = await Promise.all(files.map(async (f) => (await fsp.stat(path.join(modules, f))).mtimeMs));
    const damaged = path.join(modules, files[0]!);
    const broken = await fsp.readFile(damaged);
    broken[broken.length - 1] ^= 0xff;
    await fsp.writeFile(damaged, broken);

    const second = await startServer(quiet);
    try {
      expect(second.installedQueries.ofGraph("Social").map((q) => q.name).sort()).to.deep.equal(["friend_count", "friends_of_friends", "hello", "people_older_than"]);
      const res: any = await (await fetch(`http://127.0.0.1:${second.restPort}/query/Social/hello?p=Amara`)).json();
      expect(res.error).to.equal(false);
      expect((await fsp.readdir(modules)).sort()).to.deep.equal(files);
      // The damaged module was compiled and written again; the others were only read.
      expect(decodeModuleFile(await fsp.readFile(damaged))).to.not.equal(undefined);
      const now = await Promise.all(files.map(async (f) => (await fsp.stat(path.join(modules, f))).mtimeMs));
      expect(now.slice(1)).to.deep.equal(written.slice(1));
    } finally {
      await second.close();
    }
  });
});
