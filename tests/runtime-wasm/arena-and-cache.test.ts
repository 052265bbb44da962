// Arena chunks are lent from the graph memory's owner and reused; compiled modules are
// cached by content.
import { expect } from "chai";
import { ArenaChunk, MIN_CHUNK_BYTES } from "../../runtime-wasm/query/abi.js";
import { ArenaChunks } from "../../runtime-wasm/query/arena-chunks.js";
import { growingLender, type MemoryLender } from "../../runtime-wasm/query/memory-lender.js";
import { ModuleCache } from "../../runtime-wasm/query/module-cache.js";
import { WasmModule } from "../../compiler/emit/module.js";

describe("runtime: arena chunks", () => {
  it("borrows new chunks from the lender and reuses returned ones", () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1024, shared: true });
    const borrowed: number[] = [];
    const base = growingLender(memory);
    const lender: MemoryLender = { lend: (n) => (borrowed.push(n), base.lend(n)), takeBack: base.takeBack };
    const chunks = new ArenaChunks(memory, lender);
    const a = chunks.take(100);
    expect(a).to.equal(65536);
    expect(new DataView(memory.buffer).getUint32(a + ArenaChunk.size, true)).to.equal(MIN_CHUNK_BYTES);
    const b = chunks.take(3 << 20);
    expect(b).to.equal(a + MIN_CHUNK_BYTES);
    chunks.giveBack([a, b]);
    expect(chunks.spareBytes).to.equal(MIN_CHUNK_BYTES + (3 << 20) + 65536);
    // best fit: the small request takes the small chunk, and nothing new is borrowed
    expect(chunks.take(10)).to.equal(a);
    expect(chunks.take(2 << 20)).to.equal(b);
    expect(borrowed).to.deep.equal([MIN_CHUNK_BYTES, (3 << 20) + 65536]);
  });

  it("reports exhaustion when the lender has no room", () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 8, shared: true });
    const chunks = new ArenaChunks(memory, growingLender(memory));
    expect(() => chunks.take(1 << 20)).to.throw(/cannot lend/);
  });
});

describe("runtime: the compiled-module cache", () => {
  function bytesReturning(n: number): Uint8Array {
    const m = new WasmModule();
    m.func("f", [], "i32", () => m.i32(n), "f");
    const b = m.binary();
    m.dispose();
    return b;
  }

  it("compiles once per content and recompiles when the bytes change", async () => {
    const cache = new ModuleCache();
    const one = bytesReturning(1);
    const m1 = await cache.get("q", one);
    expect(await cache.get("q", one)).to.equal(m1);
    const m2 = await cache.get("q", bytesReturning(2));
    expect(m2).to.not.equal(m1);
    const inst = await WebAssembly.instantiate(m2);
    expect((inst.exports.f as () => number)()).to.equal(2);
    cache.delete("q");
    expect(cache.peek("q")).to.equal(undefined);
  });

  it("does not keep a failed compile", async () => {
    const cache = new ModuleCache();
    let failed = false;
    await cache.get("bad", new Uint8Array([0, 1, 2, 3])).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(cache.size).to.equal(0);
  });
});
