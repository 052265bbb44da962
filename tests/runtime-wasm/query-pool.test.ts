// The query runtime: modules run in worker threads over a shared memory, output comes back
// as results JSON, timeouts and aborts stop runs for real, several runs proceed at once.
import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { G, EmitContext } from "../../compiler/emit/context.js";
import { alloc, initArena } from "../../compiler/emit/emit-arena.js";
import { finishOutput, outKey, outTag, outTagString, outTagValue } from "../../compiler/emit/emit-output.js";
import type { Expr } from "../../compiler/emit/module.js";
import { Ctl, Out, RUN_EXPORT } from "../../runtime-wasm/query/abi.js";
import { QueryPool } from "../../runtime-wasm/query/query-pool.js";
import { decodeOutput } from "../../runtime-wasm/output/decode-output.js";
import type { RunRequest } from "../../runtime-wasm/query/run-types.js";

/** A module whose run(ctl) sets up the arena, runs `body`, publishes the output. */
async function buildModule(body: (cx: EmitContext) => Expr[]): Promise<{ module: WebAssembly.Module; keys: string[] }> {
  const cx = new EmitContext();
  const m = cx.m;
  m.func(RUN_EXPORT, [{ name: "ctl", type: "i32" }], "i32", (f) => [
    m.globalSet(G.ctl, f.param(0).get()),
    initArena(cx),
    cx.copyStrings(),
    ...body(cx),
    finishOutput(cx),
    m.i32(0),
  ], RUN_EXPORT);
  cx.finishMemory((n) => alloc(cx, n));
  m.validate();
  const module = await WebAssembly.compile(m.binary() as Uint8Array<ArrayBuffer>);
  m.dispose();
  return { module, keys: cx.keys };
}

function stringConst(cx: EmitContext, text: string): Expr {
  const m = cx.m;
  const { offset, length } = cx.stringConstant(text);
  const address = m.add("i32", m.globalGet(G.strings, "i32"), m.i32(offset));
  return m.or("i64", m.convert("i32", "i64", address, true), m.i64(BigInt(length) << 32n));
}

/** An endless loop; when `checkCancel`, it stops on the control block's cancel flag. */
function spin(cx: EmitContext, checkCancel: boolean): Expr[] {
  const m = cx.m;
  const cancelled = m.atomicLoad("i32", m.globalGet(G.ctl, "i32"), Ctl.cancel);
  return [m.loop("spin", m.seq(checkCancel ? m.if(cancelled, m.unreachable()) : m.nop(), m.br("spin")))];
}

function request(module: WebAssembly.Module, keys: string[]): RunRequest {
  return { module, manifest: { keys }, params: new Uint8Array(0), snapshot: 0, vidBound: 0, flags: 0 };
}

describe("runtime: the query worker pool", function () {
  this.timeout(20000);
  let pool: QueryPool;
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 4096, shared: true });

  before(() => {
    pool = new QueryPool({ workers: 2, graceMs: 300 });
  });
  after(async () => {
    await pool.close();
  });

  it("runs a module and formats its typed output as results JSON", async () => {
    const { module, keys } = await buildModule((cx) => {
      const m = cx.m;
      return [
        outTag(cx, Out.PrintBegin),
        outKey(cx, "m"),
        outTagValue(cx, Out.Int, "i64", m.i64(9223372036854775807n)),
        outKey(cx, "u"),
        outTagValue(cx, Out.Uint, "i64", m.i64(-1)),
        outKey(cx, "f"),
        outTagValue(cx, Out.Float, "f32", m.div("f32", m.f32(2), m.f32(3))),
        outKey(cx, "d"),
        outTagValue(cx, Out.Double, "f64", m.div("f64", m.f64(2), m.f64(3))),
        outKey(cx, "w"),
        outTagValue(cx, Out.Double, "f64", m.f64(2)),
        outKey(cx, "s"),
        outTagString(cx, Out.String, stringConst(cx, 'h\u00e9llo "q"')),
        outKey(cx, "b"),
        outTagValue(cx, Out.Bool, "u8", m.i32(1)),
        outKey(cx, "t"),
        outTagValue(cx, Out.Datetime, "i64", m.i64(1577934245)),
        outKey(cx, "l"),
        outTag(cx, Out.ArrayBegin),
        outTagValue(cx, Out.Int, "i64", m.i64(-3)),
        outTagValue(cx, Out.Int, "i64", m.i64(1)),
        outTag(cx, Out.End),
        outTag(cx, Out.End),
        outTag(cx, Out.PrintBegin),
        outKey(cx, "o"),
        outTag(cx, Out.ObjectBegin),
        outKey(cx, "x"),
        outTagValue(cx, Out.Int, "i64", m.i64(3)),
        outTag(cx, Out.End),
        outTag(cx, Out.End),
      ];
    });
    const outcome = await pool.run(memory, request(module, keys));
    expect(outcome.kind).to.equal("ok");
    if (outcome.kind !== "ok") return;
    expect(decodeOutput(outcome.output, { keys })).to.equal(
      '[{"m":9223372036854775807,"u":18446744073709551615,"f":0.6666667,"d":0.6666666666666666,"w":2,' +
        '"s":"h\u00e9llo \\"q\\"","b":true,"t":"2020-01-02 03:04:05","l":[-3,1]},{"o":{"x":3}}]',
    );
  });

  it("writes output larger than one chunk", async () => {
    const { module, keys } = await buildModule((cx) => {
      const m = cx.m;
      const body: Expr[] = [outTag(cx, Out.PrintBegin), outKey(cx, "n"), outTag(cx, Out.ArrayBegin)];
      // 20000 items of 9 bytes: three 64 KiB chunks
      body.push(
        m.block("done", [
          m.loop("again", m.seq(
            outTagValue(cx, Out.Int, "i64", m.convert("i32", "i64", m.globalGet("counter", "i32"))),
            m.globalSet("counter", m.add("i32", m.globalGet("counter", "i32"), m.i32(1))),
            m.brIf("again", m.lt("i32", m.globalGet("counter", "i32"), m.i32(20000))),
          )),
        ]),
      );
      m.global("counter", "i32", 0);
      body.push(outTag(cx, Out.End), outTag(cx, Out.End));
      return body;
    });
    const outcome = await pool.run(memory, request(module, keys));
    expect(outcome.kind).to.equal("ok");
    if (outcome.kind !== "ok") return;
    const parsed = JSON.parse(decodeOutput(outcome.output, { keys })) as { n: number[] }[];
    expect(parsed[0].n).to.have.length(20000);
    expect(parsed[0].n.every((x, i) => x === i)).to.equal(true);
  });

  it("stops a run that checks its cancel flag when the timeout expires", async () => {
    const { module, keys } = await buildModule((cx) => spin(cx, true));
    const t0 = performance.now();
    const outcome = await pool.run(memory, request(module, keys), { timeoutMs: 200 });
    expect(outcome.kind).to.equal("timeout");
    expect(performance.now() - t0).to.be.lessThan(200 + 300 - 1 + 2000);
    // the worker is still usable
    const ok = await buildModule((cx) => [outTag(cx, Out.PrintBegin), outTag(cx, Out.End)]);
    const again = await pool.run(memory, request(ok.module, ok.keys));
    expect(again.kind).to.equal("ok");
    if (again.kind === "ok") expect(decodeOutput(again.output, { keys: ok.keys })).to.equal("[{}]");
  });

  it("terminates and replaces a worker whose run ignores the cancel flag", async () => {
    const { module, keys } = await buildModule((cx) => spin(cx, false));
    const outcome = await pool.run(memory, request(module, keys), { timeoutMs: 100 });
    expect(outcome.kind).to.equal("timeout");
    const ok = await buildModule((cx) => [outTag(cx, Out.PrintBegin), outTag(cx, Out.End)]);
    const results = await Promise.all([1, 2, 3].map(() => pool.run(memory, request(ok.module, ok.keys))));
    expect(results.map((r) => r.kind)).to.deep.equal(["ok", "ok", "ok"]);
  });

  it("keeps running other queries while a long one runs, and aborts on request", async () => {
    const long = await buildModule((cx) => spin(cx, true));
    const ok = await buildModule((cx) => [outTag(cx, Out.PrintBegin), outTag(cx, Out.End)]);
    const controller = new AbortController();
    const running = pool.run(memory, request(long.module, long.keys), { signal: controller.signal });
    for (let i = 0; i < 5; i++) {
      const r = await pool.run(memory, request(ok.module, ok.keys));
      expect(r.kind).to.equal("ok");
    }
    expect(pool.busy).to.equal(1);
    controller.abort();
    expect((await running).kind).to.equal("aborted");
  });

  it("reports a trap as a runtime error and allocation beyond a chunk works", async () => {
    const { module, keys } = await buildModule((cx) => {
      const m = cx.m;
      // 3 MiB allocation (larger than the first chunk), then an integer division by zero
      return [m.drop(alloc(cx, m.i32(3 << 20))), m.drop(m.div("i32", m.i32(1), m.globalGet(G.outPos, "i32")))];
    });
    const outcome = await pool.run(memory, request(module, keys));
    expect(outcome).to.deep.include({ kind: "error", message: "Runtime Error: divider is zero." });
  });

  it("answers runs with the error when its workers cannot start, and retries with a growing wait instead of a tight loop", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wasmgraph-pool-"));
    const starts = join(dir, "starts");
    const program = join(dir, "broken-worker.mjs");
    writeFileSync(program, `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(starts)}, "x");\nthrow new Error("cannot start");\n`);
    const broken = new QueryPool({ workers: 2, workerFile: pathToFileURL(program) });
    try {
      const ok = await buildModule((cx) => [outTag(cx, Out.PrintBegin), outTag(cx, Out.End)]);
      const outcome = await broken.run(memory, request(ok.module, ok.keys));
      expect(outcome.kind).to.equal("error");
      if (outcome.kind === "error") expect(outcome.message).to.contain("cannot start");
      await new Promise((r) => setTimeout(r, 1500));
      // 2 first starts, then retries after 100, 200, 400, 800 ms ... : a handful, not hundreds
      const count = readFileSync(starts, "utf8").length;
      expect(count).to.be.within(2, 8);
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
