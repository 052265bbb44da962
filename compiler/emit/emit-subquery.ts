// Sub-queries (gsql-semantics §9.1). A query and every query it calls are compiled into one
// module; each called query becomes a function whose parameters are the call's arguments
// and whose result is its RETURN value. A call is a separate execution context: the callee
// saves its globals (variables, accumulator addresses) on entry and restores them on exit,
// so recursive calls do not disturb each other, and its accumulators are allocated afresh
// by its own declarations. PRINT inside a called query does not reach the results. An
// exception the callee does not catch propagates to the caller.
import { RUN_EXPORT } from "../../runtime-wasm/query/abi.js";
import type { IrExpr } from "../ir/ir.js";
import type { IrType } from "../ir/types.js";
import { accumAdd, newContainer } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { convert, constant, emitExpr } from "./emit-expr.js";
import { EXC, emitStmts, uncaught } from "./emit-stmt.js";
import { strAddress, strLength } from "./emit-strings.js";
import { defaultValue } from "./emit-values.js";
import { vsetForEach } from "./emit-vset.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";
import { wasmResult, wasmType } from "./wasm-types.js";

/** Depth of sub-query calls in progress: PRINT writes only at depth 0. */
export const CALL_DEPTH = "call_depth";

void RUN_EXPORT;

/** Defines the function of a called query. */
export function emitSubqueryFunction(callee: QueryEmitter): void {
  const m = callee.m;
  const cx = callee.cx;
  const params = callee.ir.params.map((id) => ({ name: callee.variable(id).name, type: wasmType(callee.variable(id).type) }));
  const result = callee.ir.returns ? wasmResult(callee.ir.returns) : "none";
  cx.ensureGlobal(CALL_DEPTH, "i32");
  m.func(callee.fn("query"), params, result, (f) =>
    callee.inFunction(f, () => {
      callee.functionKind = "subquery";
      const ret = result !== "none" ? f.local(result, "ret") : undefined;
      callee.returnLocal = ret;
      callee.bodyEnd = f.label("body_end");
      const body: Expr[] = [];
      callee.ir.params.forEach((id, i) => {
        body.push(callee.writeVar(id, f.param(i).get()), m.globalSet(callee.ownGlobal(`present${id}`, "i32"), m.i32(1)));
      });
      body.push(...emitStmts(callee, callee.ir.body));
      // The globals are known now that the body is emitted: save them first, restore last.
      const frame = f.local("i32", "frame");
      const globals = [...callee.ownedGlobals];
      const save = globals.map(([name, type], i) => m.store(type, frame.get(), m.globalGet(name, type), 8 * i));
      const restore = globals.map(([name, type], i) => m.globalSet(name, m.load(type, frame.get(), 8 * i)));
      return [
        frame.set(alloc(cx, m.i32(8 * Math.max(1, globals.length)))),
        ...save,
        m.globalSet(CALL_DEPTH, m.add("i32", m.globalGet(CALL_DEPTH, "i32"), m.i32(1))),
        ret ? ret.set(defaultValue(cx, callee.ir.returns!)) : m.nop(),
        m.block(callee.bodyEnd, body),
        ...restore,
        m.globalSet(CALL_DEPTH, m.sub("i32", m.globalGet(CALL_DEPTH, "i32"), m.i32(1))),
        ...(ret ? [ret.get()] : []),
      ];
    }),
  );
}

/** A call of another query (or of this one), as an expression or a statement. */
export function emitSubqueryCall(qe: QueryEmitter, x: Extract<IrExpr, { e: "subquery" }>): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const callee = qe.callee(x.query);
  if (callee === undefined) throw new UnsupportedError(`calling query ${x.query}, which was not given to the compiler`);
  const args = callee.ir.params.map((id, i) => {
    const p = callee.variable(id);
    const a = x.args[i];
    if (a === undefined) return p.default !== undefined ? constant(qe, p.type, p.default) : p.type.t === "accum" ? newContainer(cx, p.type.accum) : defaultValue(cx, p.type);
    return argument(qe, a, p.type);
  });
  const resultType = wasmResult(x.type);
  cx.ensureGlobal(EXC.code, "i32");
  const value = resultType !== "none" ? qe.f.local(resultType, "sub") : undefined;
  const call = m.call(callee.fn("query"), args, resultType);
  return m.block(
    null,
    [value ? value.set(call) : call, m.if(m.ne("i32", m.globalGet(EXC.code, "i32"), m.i32(0)), propagate(qe)), ...(value ? [value.get()] : [])],
    resultType,
  );
}

/** An argument converted to the parameter's type (a vertex set passed for a SET<VERTEX>). */
function argument(qe: QueryEmitter, a: IrExpr, t: IrType): Expr {
  const m = qe.m;
  const cx = qe.cx;
  if (a.type.t === "vset" && t.t === "accum") {
    const cell = qe.f.local("i32", "arg");
    const acc = t.accum;
    return m.block(
      null,
      [
        cell.set(alloc(cx, m.i32(8))),
        m.store("i32", cell.get(), newContainer(cx, acc)),
        vsetForEach(cx, qe.f, emitExpr(qe, a), (v) => [accumAdd(cx, acc, cell.get(), v.get(), { t: "vertex" })]),
        m.load("i32", cell.get()),
      ],
      "i32",
    );
  }
  return convert(qe, a.type, t, emitExpr(qe, a));
}

/** After a call that raised: on to the TRY around the call, else out of this function. */
function propagate(qe: QueryEmitter): Expr {
  const m = qe.m;
  const handler = qe.tries[qe.tries.length - 1];
  if (handler) return m.br(handler);
  if (qe.functionKind === "subquery") return m.br(qe.bodyEnd);
  if (qe.functionKind === "run") return uncaught(qe);
  // inside a SELECT the run ends with the exception
  const msg = () => m.globalGet(EXC.message, "i64");
  qe.cx.ensureGlobal(EXC.message, "i64");
  return qe.cx.host("raise", [m.globalGet(EXC.code, "i32"), strAddress(qe.cx, msg()), strLength(qe.cx, msg())]);
}

export { emitStmts };
