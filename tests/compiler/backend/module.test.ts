// The Binaryen wrapper: modules it builds validate, run, and report Binaryen failures as
// EmitError values instead of printing to stderr.
import { expect } from "chai";
import { EmitError, WasmModule } from "../../../compiler/emit/module.js";

async function instantiate(m: WasmModule, imports: WebAssembly.Imports = {}): Promise<WebAssembly.Instance> {
  m.validate();
  const bytes = m.binary();
  const module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  return WebAssembly.instantiate(module, imports);
}

describe("emit/module: the Binaryen wrapper", () => {
  it("builds i64 arithmetic with constants beyond 2^53 exactly", async () => {
    const m = new WasmModule();
    m.func("big", [{ name: "x", type: "i64" }], "i64", (f) => m.add("i64", f.param(0).get(), m.i64(9007199254740993n)), "big");
    const inst = await instantiate(m);
    const big = inst.exports.big as (x: bigint) => bigint;
    expect(big(1n)).to.equal(9007199254740994n);
    expect(big(9223372036854775807n - 9007199254740993n)).to.equal(9223372036854775807n);
    m.dispose();
  });

  it("runs a counted loop with CONTINUE and BREAK labels", async () => {
    const m = new WasmModule();
    // sum of i in [0, n) skipping multiples of 3, stopping at 50
    m.func("sum", [{ name: "n", type: "i32" }], "i32", (f) => {
      const i = f.local("i32", "i");
      const acc = f.local("i32", "acc");
      return [
        f.forRange(i, m.i32(0), f.param(0).get(), (l) => [
          m.brIf(l.next, m.eqz("i32", m.rem("i32", i.get(), m.i32(3)))),
          m.brIf(l.exit, m.ge("i32", i.get(), m.i32(50))),
          acc.set(m.add("i32", acc.get(), i.get())),
        ]),
        acc.get(),
      ];
    }, "sum");
    const inst = await instantiate(m);
    const sum = inst.exports.sum as (n: number) => number;
    let want = 0;
    for (let i = 0; i < 100; i++) {
      if (i % 3 === 0) continue;
      if (i >= 50) break;
      want += i;
    }
    expect(sum(100)).to.equal(want);
    expect(sum(10)).to.equal(1 + 2 + 4 + 5 + 7 + 8);
  });

  it("runs a while loop", async () => {
    const m = new WasmModule();
    m.func("collatz", [{ name: "n", type: "i64" }], "i32", (f) => {
      const n = f.param(0);
      const steps = f.local("i32", "steps");
      return [
        f.whileLoop(() => m.ne("i64", n.get(), m.i64(1)), () => [
          n.set(m.select(m.eqz("i64", m.and("i64", n.get(), m.i64(1))), m.div("i64", n.get(), m.i64(2)), m.add("i64", m.mul("i64", n.get(), m.i64(3)), m.i64(1)))),
          steps.set(m.add("i32", steps.get(), m.i32(1))),
        ]),
        steps.get(),
      ];
    }, "collatz");
    const inst = await instantiate(m);
    expect((inst.exports.collatz as (n: bigint) => number)(27n)).to.equal(111);
  });

  it("imports a shared memory, copies a passive segment into it and uses atomics", async () => {
    const m = new WasmModule();
    m.importSharedMemory({ module: "graph", base: "memory", segments: [{ name: "s0", data: new TextEncoder().encode("hello") }] });
    m.func("put", [{ name: "p", type: "i32" }], "i32", (f) => [
      m.memoryInit("s0", f.param(0).get(), m.i32(0), m.i32(5)),
      m.drop(m.atomicAdd("i32", m.i32(0), m.i32(7))),
      m.atomicLoad("i32", m.i32(0)),
    ], "put");
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 16, shared: true });
    const inst = await instantiate(m, { graph: { memory } });
    expect((inst.exports.put as (p: number) => number)(64)).to.equal(7);
    expect(new TextDecoder().decode(new Uint8Array(memory.buffer).slice(64, 69))).to.equal("hello");
  });

  it("converts between number types with truncation toward zero and saturation", async () => {
    const m = new WasmModule();
    m.func("toInt", [{ name: "x", type: "f64" }], "i64", (f) => m.convert("f64", "i64", f.param(0).get()), "toInt");
    m.func("toU", [{ name: "x", type: "i32" }], "i64", (f) => m.convert("i32", "i64", f.param(0).get(), true), "toU");
    const inst = await instantiate(m);
    const toInt = inst.exports.toInt as (x: number) => bigint;
    expect(toInt(-3.9)).to.equal(-3n);
    expect(toInt(1e300)).to.equal(9223372036854775807n);
    expect(toInt(NaN)).to.equal(0n);
    expect((inst.exports.toU as (x: number) => bigint)(-1)).to.equal(4294967295n);
  });

  it("reports an invalid module as an EmitError and prints nothing", () => {
    const m = new WasmModule();
    m.func("bad", [], "i32", () => m.add("i32", m.i32(1), m.i64(2)));
    expect(() => m.validate()).to.throw(EmitError, /invalid/);
    try {
      m.validate();
    } catch (e) {
      expect((e as EmitError).details).to.contain("i32 != i64");
    }
  });

  it("turns a Binaryen abort into an EmitError", () => {
    const m = new WasmModule();
    // a local index that does not exist: emitting aborts inside Binaryen
    m.func("broken", [], "i32", () => m.raw.local.get(5, m.raw.i32.const(0) && 2));
    expect(() => m.binary()).to.throw(EmitError);
  });

  it("optimises and prints text", () => {
    const m = new WasmModule();
    m.func("k", [], "i32", () => m.add("i32", m.i32(2), m.i32(3)), "k");
    m.validate();
    m.optimize(2);
    expect(m.text()).to.contain("(i32.const 5)");
  });
});
