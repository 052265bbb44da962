// Query semantics that need no graph: arithmetic and conversions, every scalar accumulator,
// the collection accumulators, control flow, exceptions, and output formatting. Each case is
// the IR of a documented GSQL example, with the documented results.
import { expect } from "chai";
import { acc, IrBuilder, T, tuple } from "./ir-builder.js";
import { closeTestPool, runIr } from "./run-ir.js";

describe("back end: scalar and accumulator semantics (IR -> WebAssembly -> JSON)", function () {
  this.timeout(20000);
  after(closeTestPool);

  it("integer division stays integer; float-to-INT assignment truncates (§1.3)", async () => {
    const b = new IrBuilder();
    const i = b.variable("i", T.INT);
    const f = b.variable("f", T.FLOAT);
    const d = b.variable("d", T.DOUBLE);
    const j = b.variable("j", T.INT);
    b.add(
      b.let(i, b.bin("div", b.int(7), b.int(2))),
      b.let(f, b.conv(b.bin("div", b.int(7), b.int(2)), T.FLOAT)),
      b.let(d, b.bin("div", b.conv(b.int(7), T.DOUBLE), b.double(2))),
      b.let(j, b.conv(b.bin("div", b.conv(b.int(7), T.DOUBLE), b.double(4)), T.INT)),
      b.print(["i", b.v(i)], ["f", b.v(f)], ["d", b.v(d)], ["j", b.v(j)]),
    );
    const r = await runIr(b.q);
    expect(r.json).to.deep.equal([{ i: 3, f: 3, d: 3.5, j: 1 }]);
  });

  it("prints 64-bit integers exactly and floats by type (§1.5, §13 item 14)", async () => {
    const b = new IrBuilder();
    const x = b.variable("x", T.INT);
    const d = b.variable("d", T.DOUBLE);
    const w = b.variable("w", T.DOUBLE);
    b.add(
      b.let(x, b.int(1)),
      b.let(d, b.bin("div", b.double(2), b.conv(b.int(3), T.DOUBLE))),
      b.let(w, b.bin("div", b.double(4), b.conv(b.int(2), T.DOUBLE))),
      b.print(["x+1", b.bin("add", b.v(x), b.int(1))], ["d", b.v(d)], ["w", b.v(w)], ["m", b.int(9223372036854775807n)], ["u", b.uint(18446744073709551615n)], ["f", b.bin("div", b.float(2), b.float(3))]),
    );
    const r = await runIr(b.q);
    expect(r.kind).to.equal("ok");
    if (r.kind === "ok") {
      expect(r.results).to.equal('[{"x+1":2,"d":0.6666666666666666,"w":2,"m":9223372036854775807,"u":18446744073709551615,"f":0.6666667}]');
    }
  });

  it("wraps INT arithmetic at 64 bits and orders UINT unsigned", async () => {
    const b = new IrBuilder();
    const big = b.variable("big", T.INT);
    const u = b.variable("u", T.UINT);
    b.add(
      b.let(big, b.int(9223372036854775807n)),
      b.let(u, b.uint(18446744073709551615n)),
      b.print(["wrap", b.bin("add", b.v(big), b.int(1))], ["ult", b.bin("lt", b.uint(1), b.v(u))], ["neg", b.bin("div", b.int(-7), b.int(2))], ["rem", b.bin("mod", b.int(-7), b.int(2))]),
    );
    const r = await runIr(b.q);
    expect(r.json).to.deep.equal([{ wrap: -9223372036854775808, ult: true, neg: -3, rem: -1 }]);
    if (r.kind === "ok") expect(r.results).to.contain('"wrap":-9223372036854775808');
  });

  it("division by zero is the documented run-time error", async () => {
    const b = new IrBuilder();
    const z = b.variable("z", T.INT);
    const fz = b.variable("fz", T.DOUBLE);
    b.add(b.let(z, b.int(0)), b.print(["ok", b.int(1)]), b.print(["x", b.bin("div", b.int(5), b.v(z))]));
    const r = await runIr(b.q);
    expect(r).to.deep.include({ kind: "error", message: "Runtime Error: divider is zero." });
    const c = new IrBuilder();
    const fz2 = c.variable("fz", T.DOUBLE);
    c.add(c.let(fz2, c.double(0)), c.print(["x", c.bin("div", c.double(100), c.v(fz2))]));
    expect(await runIr(c.q)).to.deep.include({ kind: "error", message: "Runtime Error: divider is zero." });
    void fz;
  });

  it("scalar accumulators: Sum<STRING>, Min, Avg, Or, And, BitwiseOr (§3.2)", async () => {
    const b = new IrBuilder();
    const s = b.accum("s", "global", { a: "sum", elem: T.STRING });
    const mn = b.accum("mn", "global", { a: "min", elem: T.INT });
    const avg = b.accum("avg", "global", { a: "avg" });
    const none = b.accum("none", "global", { a: "avg" });
    const o = b.accum("o", "global", { a: "or" });
    const an = b.accum("an", "global", { a: "and" });
    const bo = b.accum("bo", "global", { a: "bitor", width: 64 });
    b.add(
      ...[s, mn, avg, none, o, an, bo].map((id) => b.declAccum(id)),
      b.accumulate(b.gt(s), b.str("ab")),
      b.accumulate(b.gt(s), b.str("c")),
      b.accumulate(b.gt(mn), b.int(5)),
      b.accumulate(b.gt(mn), b.int(-2)),
      b.accumulate(b.gt(avg), b.int(1)),
      b.accumulate(b.gt(avg), b.int(2)),
      b.accumulate(b.gt(bo), b.int(5)),
      b.accumulate(b.gt(bo), b.int(2)),
      b.print(["@@s", b.g(s)], ["@@mn", b.g(mn)], ["@@avg", b.g(avg)], ["@@none", b.g(none)], ["@@o", b.g(o)], ["@@an", b.g(an)]),
      b.print(["@@bo", b.g(bo)]),
      b.assign(b.gt(avg), b.int(10)),
      b.accumulate(b.gt(avg), b.int(20)),
      b.print(["@@avg", b.g(avg)]),
    );
    const r = await runIr(b.q);
    expect(r.kind).to.equal("ok");
    if (r.kind !== "ok") return;
    expect(r.results).to.equal(
      '[{"@@s":"abc","@@mn":-2,"@@avg":1.5,"@@none":0,"@@o":false,"@@an":true},' +
        '{"@@bo":"0000000000000000000000000000000000000000000000000000000000000111"},{"@@avg":15}]',
    );
  });

  it("collection accumulators: List, Set, Bag, Map of accumulators, ArrayAccum (§3.3)", async () => {
    const b = new IrBuilder();
    const l = b.accum("l", "global", { a: "list", elem: T.INT });
    const st = b.accum("st", "global", { a: "set", elem: T.INT });
    const bg = b.accum("bg", "global", { a: "bag", elem: T.INT });
    const mm = b.accum("m", "global", { a: "map", key: T.STRING, value: { a: "sum", elem: T.INT } });
    const n = b.accum("n", "global", { a: "map", key: T.STRING, value: { a: "sum", elem: T.INT } });
    const ml = b.accum("ml", "global", { a: "map", key: T.STRING, value: { a: "list", elem: T.INT } });
    const arr = b.accum("arr", "global", { a: "array", elem: { a: "sum", elem: T.INT }, dims: 1 });
    const arrType = acc({ a: "array", elem: { a: "sum", elem: T.INT }, dims: 1 });
    b.add(
      ...[l, st, bg, mm, n, ml].map((id) => b.declAccum(id)),
      { s: "declAccum", id: arr, sizes: [b.int(3)] },
      b.accumulate(b.gt(l), b.int(3)),
      b.accumulate(b.gt(l), b.list([b.int(1), b.int(3)], T.INT)),
      b.accumulate(b.gt(st), b.int(3)),
      b.accumulate(b.gt(st), b.set([b.int(1), b.int(3)], T.INT)),
      b.accumulate(b.gt(bg), b.int(3)),
      b.accumulate(b.gt(bg), b.set([b.int(1), b.int(3)], T.INT, "bag")),
      b.accumulate(b.gt(mm), b.entry([b.str("x")], [b.int(1)])),
      b.accumulate(b.gt(mm), b.entry([b.str("x")], [b.int(2)])),
      b.accumulate(b.gt(n), b.entry([b.str("y")], [b.int(5)])),
      b.accumulate(b.gt(n), b.entry([b.str("y")], [b.int(1)])),
      b.accumulate(b.gt(ml), b.entry([b.str("z")], [b.int(1)])),
      b.accumulate(b.gt(ml), b.entry([b.str("z")], [b.int(2)])),
      b.accumulate({ t: "gacc", id: arr, indices: [b.int(0)] }, b.int(2)),
      b.accumulate({ t: "gacc", id: arr, indices: [b.int(2)] }, b.int(5)),
      b.accumulate({ t: "gacc", id: arr, indices: [b.int(2)] }, b.int(1)),
      b.print(
        ["@@l", b.g(l)],
        ["oob", b.method(b.g(l), "list.get", [b.int(5)], T.INT)],
        ["ns", b.method(b.g(st), "set.size", [], T.INT)],
        ["nb", b.method(b.g(bg), "bag.size", [], T.INT)],
        ["has1", b.method(b.g(st), "set.contains", [b.int(1)], T.BOOL)],
      ),
      b.print(["@@m", b.g(mm)], ["@@n", b.g(n)], ["@@ml", b.g(ml)], ["missing", b.method(b.g(n), "map.get", [b.str("nope")], T.INT)], ["@@arr", { e: "gacc", id: arr, type: arrType }]),
    );
    const r = await runIr(b.q);
    expect(r.json).to.deep.equal([
      { "@@l": [3, 1, 3], oob: 0, ns: 2, nb: 3, has1: true },
      { "@@m": { x: 3 }, "@@n": { y: 6 }, "@@ml": { z: [1, 2] }, missing: 0, "@@arr": [2, 0, 6] },
    ]);
  });

  it("HeapAccum keeps the best by its keys; GroupByAccum folds per key (§3.3)", async () => {
    const b = new IrBuilder();
    const KV = tuple([["k", T.STRING], ["v", T.INT]], "KV");
    const heapType = { a: "heap" as const, tuple: KV, keys: [{ field: 1, desc: true }, { field: 0, desc: false }] };
    const h = b.accum("h", "global", heapType);
    const gbType = { a: "groupby" as const, keys: [{ name: "g", type: T.STRING }], values: [{ name: "total", accum: { a: "sum" as const, elem: T.INT } }, { name: "hi", accum: { a: "max" as const, elem: T.INT } }] };
    const gb = b.accum("gb", "global", gbType);
    const xt = tuple([["total", T.INT], ["hi", T.INT]]);
    b.add(
      b.declAccum(h, undefined, b.int(2)),
      b.declAccum(gb),
      b.print(["empty_top", b.method(b.g(h), "heap.top", [], KV)]),
      b.accumulate(b.gt(h), b.tup(KV, [b.str("x"), b.int(1)])),
      b.accumulate(b.gt(h), b.tup(KV, [b.str("z"), b.int(5)])),
      b.accumulate(b.gt(h), b.tup(KV, [b.str("y"), b.int(5)])),
      b.accumulate(b.gt(gb), b.entry([b.str("x")], [b.int(1), b.int(4)])),
      b.accumulate(b.gt(gb), b.entry([b.str("x")], [b.int(2), b.int(3)])),
      b.accumulate(b.gt(gb), b.entry([b.str("y")], [b.int(5), b.int(5)])),
      b.print(
        ["@@h", { e: "gacc", id: h, type: acc(heapType) }],
        ["t", b.method(b.g(h), "heap.top", [], KV)],
        ["xt", { e: "field", index: 0, type: T.INT, target: b.method(b.g(gb), "groupBy.get", [b.str("x")], xt) }],
        ["hq", b.method(b.g(gb), "groupBy.containsKey", [b.str("q")], T.BOOL)],
      ),
      b.print(["@@gb", { e: "gacc", id: gb, type: acc(gbType) }]),
    );
    const r = await runIr(b.q);
    expect(r.json).to.deep.equal([
      { empty_top: { k: "", v: 0 } },
      { "@@h": [{ k: "y", v: 5 }, { k: "z", v: 5 }], t: { k: "y", v: 5 }, xt: 3, hq: false },
      { "@@gb": [{ g: "x", total: 3, hi: 4 }, { g: "y", total: 5, hi: 5 }] },
    ]);
  });

  it("RANGE is inclusive with STEP; WHILE LIMIT caps passes (§13 item 15)", async () => {
    const b = new IrBuilder();
    const l = b.accum("l", "global", { a: "list", elem: T.INT });
    const i = b.variable("i", T.INT);
    const k = b.variable("k", T.INT, "loop");
    const down = b.accum("down", "global", { a: "list", elem: T.INT });
    const k2 = b.variable("k2", T.INT, "loop");
    b.add(
      b.declAccum(l),
      b.declAccum(down),
      b.let(i, b.int(0)),
      { s: "forRange", id: k, low: b.int(1), high: b.int(7), step: b.int(3), body: [b.accumulate(b.gt(l), b.v(k))] },
      { s: "forRange", id: k2, low: b.int(5), high: b.int(1), step: b.int(-2), body: [b.accumulate(b.gt(down), b.v(k2))] },
      { s: "while", cond: b.bool(true), limit: b.int(2), body: [b.assign(b.vr(i), b.bin("add", b.v(i), b.int(1)))] },
      b.print(["@@l", b.g(l)], ["i", b.v(i)], ["down", b.g(down)]),
    );
    expect((await runIr(b.q)).json).to.deep.equal([{ "@@l": [1, 4, 7], i: 2, down: [5, 3, 1] }]);
  });

  it("BREAK and CONTINUE in WHILE and FOREACH", async () => {
    const b = new IrBuilder();
    const l = b.accum("l", "global", { a: "list", elem: T.INT });
    const n = b.variable("n", T.INT);
    const k = b.variable("k", T.INT, "loop");
    b.add(
      b.declAccum(l),
      b.let(n, b.int(0)),
      {
        s: "while",
        cond: b.bool(true),
        body: [
          b.assign(b.vr(n), b.bin("add", b.v(n), b.int(1))),
          { s: "if", branches: [{ cond: b.bin("gt", b.v(n), b.int(5)), body: [{ s: "break" }] }] },
          { s: "if", branches: [{ cond: b.bin("eq", b.bin("mod", b.v(n), b.int(2)), b.int(0)), body: [{ s: "continue" }] }] },
          b.accumulate(b.gt(l), b.v(n)),
        ],
      },
      {
        s: "forEach",
        ids: [k],
        collection: b.list([b.int(10), b.int(20), b.int(30), b.int(40)], T.INT),
        body: [{ s: "if", branches: [{ cond: b.bin("eq", b.v(k), b.int(20)), body: [{ s: "continue" }] }] }, { s: "if", branches: [{ cond: b.bin("eq", b.v(k), b.int(40)), body: [{ s: "break" }] }] }, b.accumulate(b.gt(l), b.v(k))],
      },
      b.print(["l", b.g(l)]),
    );
    expect((await runIr(b.q)).json).to.deep.equal([{ l: [1, 3, 5, 10, 30] }]);
  });

  it("TRY catches a RAISE; an uncaught one ends the run with its code and message (§9.2)", async () => {
    const b = new IrBuilder();
    const n = b.variable("n", T.INT);
    const tooBig = b.exception("tooBig", 40001);
    const raise = { s: "raise" as const, exception: tooBig, message: b.bin("concat", b.str("n="), b.call("to_string", [b.v(n)], T.STRING), T.STRING) };
    b.add(
      b.let(n, b.int(5)),
      {
        s: "try",
        body: [{ s: "if", branches: [{ cond: b.bin("gt", b.v(n), b.int(3)), body: [raise] }] }, b.print(["u", b.str("unreached")])],
        handlers: [{ exception: tooBig, body: [b.print(["h", b.str("caught")])] }],
      },
      b.print(["n", b.v(n)]),
    );
    expect((await runIr(b.q)).json).to.deep.equal([{ h: "caught" }, { n: 5 }]);

    const c = new IrBuilder();
    const m = c.variable("n", T.INT);
    const e = c.exception("tooBig", 40001);
    c.add(c.let(m, c.int(5)), c.print(["before", c.int(1)]), { s: "raise", exception: e, message: c.bin("concat", c.str("n="), c.call("to_string", [c.v(m)], T.STRING), T.STRING) });
    expect(await runIr(c.q)).to.deep.include({ kind: "exception", code: 40001, message: "n=5" });
  });

  it("string functions, DATETIME functions and formatting (§7.3, §7.4)", async () => {
    const b = new IrBuilder();
    const d = b.variable("d", T.DATETIME);
    b.add(
      b.let(d, b.call("to_datetime", [b.str("2020-01-02 03:04:05")], T.DATETIME)),
      b.print(
        ["d", b.v(d)],
        ["e", b.call("datetime_to_epoch", [b.v(d)], T.INT)],
        ["f", b.call("datetime_format", [b.v(d), b.str("%Y/%m")], T.STRING)],
        ["y", b.call("year", [b.v(d)], T.INT)],
        ["nxt", b.call("datetime_add", [b.v(d), { e: "interval", value: b.int(1), unit: "MONTH", type: T.INT }], T.DATETIME)],
        ["diff", b.call("datetime_diff", [b.call("to_datetime", [b.str("2020-01-01 00:00:00")], T.DATETIME), b.v(d)], T.INT)],
      ),
      b.print(
        ["up", b.call("upper", [b.str("abc")], T.STRING)],
        ["sub", b.call("substr", [b.str("ABCDE"), b.int(-2), b.int(1)], T.STRING)],
        ["len", b.call("length", [b.str("hello")], T.INT)],
        ["ts", b.call("to_string", [b.double(1000.1)], T.STRING)],
        ["cmp", b.bin("lt", b.str("person10"), b.str("person2"))],
        ["eq", b.bin("eq", b.bin("concat", b.str("ab"), b.str("c"), T.STRING), b.str("abc"))],
        ["like", { e: "like", value: b.str("Peter"), pattern: b.str("P%r"), negated: false, type: T.BOOL }],
      ),
    );
    expect((await runIr(b.q)).json).to.deep.equal([
      { d: "2020-01-02 03:04:05", e: 1577934245, f: "2020/01", y: 2020, nxt: "2020-02-02 03:04:05", diff: -97445 },
      { up: "ABC", sub: "D", len: 5, ts: "1000.1", cmp: true, eq: true, like: true },
    ]);
  });

  it("aggregates over collections (§3.4)", async () => {
    const b = new IrBuilder();
    const v = b.accum("v", "global", { a: "list", elem: T.INT });
    b.add(
      b.declAccum(v),
      b.accumulate(b.gt(v), b.list([b.int(1), b.int(2), b.int(2), b.int(5)], T.INT)),
      b.print(
        ["c", b.call("count", [b.g(v)], T.INT)],
        ["s", b.call("sum", [b.g(v)], T.INT)],
        ["mx", b.call("max", [b.g(v)], T.INT)],
        ["a", b.call("avg", [b.g(v)], T.INT)],
        ["cd", b.call("count", [b.g(v)], T.INT, true)],
      ),
    );
    expect((await runIr(b.q)).json).to.deep.equal([{ c: 4, s: 10, mx: 5, a: 2, cd: 3 }]);
  });

  it("parameters: defaults, NULL, COALESCE and sets (§1.6, §10)", async () => {
    const b = new IrBuilder();
    const p = b.param("p", T.INT);
    const q = b.param("q", T.INT, 4n);
    const s = b.param("s", acc({ a: "set", elem: T.STRING }));
    const name = b.param("name", T.STRING);
    b.add(
      { s: "if", branches: [{ cond: { e: "isNull", param: p, negated: false, type: T.BOOL }, body: [b.print(["r", b.str("none")])] }], otherwise: [b.print(["r", b.v(p)])] },
      b.print(["q", b.v(q)], ["c", b.call("coalesce", [b.v(p), b.int(999)], T.INT)], ["n", b.method(b.v(s), "set.size", [], T.INT)], ["has", { e: "in", value: b.str("b"), collection: b.v(s), negated: false, type: T.BOOL }], ["name", b.v(name)]),
    );
    expect((await runIr(b.q, { params: [undefined, 4n, ["a", "b", "a"], "Ann"] })).json).to.deep.equal([{ r: "none" }, { q: 4, c: 999, n: 2, has: true, name: "Ann" }]);
    expect((await runIr(b.q, { params: [7n, 9n, [], ""] })).json).to.deep.equal([{ r: 7 }, { q: 9, c: 7, n: 0, has: false, name: "" }]);
  });

  it("a runaway WHILE TRUE is stopped by its timeout", async () => {
    const b = new IrBuilder();
    const n = b.variable("n", T.INT);
    b.add(b.let(n, b.int(0)), { s: "while", cond: b.bool(true), body: [b.assign(b.vr(n), b.bin("add", b.v(n), b.int(1)))] });
    const t0 = Date.now();
    const r = await runIr(b.q, { timeoutMs: 200 });
    expect(r.kind).to.equal("timeout");
    expect(Date.now() - t0).to.be.lessThan(5000);
  });
});
