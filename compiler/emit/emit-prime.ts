// `v.@a'`: the value vertex accumulator @a had before the ACCUM clause of the latest SELECT
// (gsql-semantics §4.2 item 5). For an accumulator whose prime is read, each vertex has a
// copy of its state and the SELECT number the copy was taken in: the first write to a
// vertex's state during a SELECT copies the state aside first. A read of the prime gets the
// copy when it was taken in the current SELECT, else the state itself (not written yet).
// A collection's state is its container: the copy is a second container, refilled with the
// elements (map entries, heap items, GroupBy entries, array cells) at the first write of
// each SELECT.
// A SELECT over a large part of the graph that writes a scalar accumulator copies the whole
// column aside at its start instead (one memory copy) and raises the accumulator's "copied
// in full" flag: its reads of the prime then load the copy with no stamp check, and writes
// capture nothing. That takes the per-edge stamp lookups out of whole-graph rounds (WCC,
// PageRank); small frontiers keep the per-vertex copies.
import type { EmitContext } from "./context.js";
import { accumAssign, accumRead, accumSize, allocStates, inlineTuple } from "./emit-accum.js";
import { allocZeroed } from "./emit-arena.js";
import { GG } from "./emit-graph.js";
import type { Expr, ValueType } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";
import { accumValueType, isCollectionAccum } from "../ir/types.js";
import type { IrSelect } from "../ir/ir.js";
import { visitStmts } from "../passes/walk-ir.js";
import { wasmType } from "./wasm-types.js";

/** Collection accumulators whose prime is kept as a copy of the container. */
const COPYABLE = new Set(["list", "set", "bag", "map", "heap", "groupby", "array"]);

/** The SELECT counter; the prologue of every SELECT increments it. */
export const SELECT_EPOCH = "select_epoch";

export function primeGlobals(qe: QueryEmitter, id: number): { prev: string; epoch: string } {
  const cx = qe.cx;
  cx.ensureGlobal(SELECT_EPOCH, "i32");
  return { prev: qe.ownGlobal(`prev${id}`, "i32"), epoch: qe.ownGlobal(`epoch${id}`, "i32") };
}

/** The "whole column copied in this SELECT" flag of a scalar accumulator; undefined for collections. */
function fullCopyFlag(qe: QueryEmitter, id: number): string | undefined {
  if (isCollectionAccum(qe.accumType(id))) return undefined;
  return qe.ownGlobal(`prime_all${id}`, "i32");
}

/**
 * A source set of at least 1/FULL_COPY_FRACTION of the vertex id range makes the SELECT copy
 * whole columns: the copy (8 bytes per vertex, sequential) then costs less than a stamp
 * lookup per written or read vertex.
 */
const FULL_COPY_FRACTION = 8;

/**
 * At a SELECT's start (after its source set `sourceCount` is known): per primed scalar
 * accumulator of the query, a full copy and raised flag when the SELECT writes it and the
 * source is large, else a lowered flag (the per-vertex stamps apply).
 */
export function primeSelectStart(qe: QueryEmitter, sel: IrSelect, sourceCount: () => Expr, whole?: () => Expr): Expr {
  const m = qe.m;
  const written = writtenAccums(sel);
  const out: Expr[] = [];
  for (const decl of qe.ir.accums) {
    if (decl.scope !== "vertex" || !decl.primeUsed) continue;
    const flag = fullCopyFlag(qe, decl.id);
    if (flag === undefined) continue;
    if (!written.has(decl.id)) {
      out.push(m.globalSet(flag, m.i32(0)));
      continue;
    }
    const g = primeGlobals(qe, decl.id);
    const acc = () => m.globalGet(qe.accumGlobal(decl.id), "i32");
    const bound = () => m.globalGet(GG.vidBound, "i32");
    out.push(
      m.globalSet(
        flag,
        m.and(
          "i32",
          // `whole`: a SELECT split across threads, whose writes cannot take per-vertex copies
          m.or("i32", m.ge("i32", m.mul("i32", sourceCount(), m.i32(FULL_COPY_FRACTION)), bound(), true), whole ? whole() : m.i32(0)),
          m.and("i32", m.ne("i32", m.globalGet(g.prev, "i32"), m.i32(0)), m.ne("i32", acc(), m.i32(0))),
        ),
      ),
      m.if(m.globalGet(flag, "i32"), m.memoryCopy(m.globalGet(g.prev, "i32"), acc(), m.mul("i32", bound(), m.i32(accumSize(decl.type))))),
    );
  }
  return m.seq(m.nop(), ...out);
}

function writtenAccums(sel: IrSelect): Set<number> {
  const written = new Set<number>();
  visitStmts([...sel.accum, ...sel.postAccum.flatMap((p) => p.body)], (st) => {
    if ((st.s === "assign" || st.s === "accumulate") && st.target.t === "vacc") written.add(st.target.id);
  });
  return written;
}

/**
 * 1 when every primed scalar accumulator the SELECT writes was copied whole at its start
 * (primeSelectStart), so its writes capture nothing per vertex: what a split walk needs.
 */
export function primesWhole(qe: QueryEmitter, sel: IrSelect): Expr {
  const m = qe.m;
  const written = writtenAccums(sel);
  let all: Expr = m.i32(1);
  for (const decl of qe.ir.accums) {
    if (decl.scope !== "vertex" || !decl.primeUsed || !written.has(decl.id)) continue;
    const flag = fullCopyFlag(qe, decl.id);
    // a collection's prime is copied per vertex, never whole
    all = flag === undefined ? m.i32(0) : m.and("i32", all, m.globalGet(flag, "i32"));
  }
  return all;
}

/** Allocates the copies and stamps when the vertex accumulator is declared. */
export function primeDeclare(qe: QueryEmitter, id: number): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const a = qe.accumType(id);
  if (isCollectionAccum(a) && !COPYABLE.has(a.a)) throw new UnsupportedError(`the ' (prime) of a ${a.a} accumulator`);
  const g = primeGlobals(qe, id);
  return m.seq(
    m.globalSet(g.prev, allocStates(cx, qe.f, a, m.globalGet(GG.vidBound, "i32"))),
    m.globalSet(g.epoch, allocZeroed(cx, m.shl("i32", m.globalGet(GG.vidBound, "i32"), m.i32(2)))),
  );
}

/** Before a write to `vertex`'s state: keeps the state as it was before this SELECT. */
export function primeCapture(qe: QueryEmitter, id: number, vertex: Expr): Expr {
  const m = qe.m;
  const cx: EmitContext = qe.cx;
  const g = primeGlobals(qe, id);
  const a = qe.accumType(id);
  const size = accumSize(a);
  const full = fullCopyFlag(qe, id);
  const name = cx.helper(qe.fn(`prime_capture_${id}`), [{ name: "v", type: "i32" }], "none", (f) => {
    const v = f.param(0);
    const stamp = f.local("i32", "stamp");
    return [
      stamp.set(m.add("i32", m.globalGet(g.epoch, "i32"), m.shl("i32", v.get(), m.i32(2)))),
      m.if(
        m.ne("i32", m.load("i32", stamp.get()), m.globalGet(SELECT_EPOCH, "i32")),
        m.seq(
          ...(isCollectionAccum(a)
            ? [accumAssign(cx, a, m.add("i32", m.globalGet(g.prev, "i32"), m.mul("i32", v.get(), m.i32(size))), accumRead(cx, a, m.add("i32", m.globalGet(qe.accumGlobal(id), "i32"), m.mul("i32", v.get(), m.i32(size)))), { t: "accum", accum: a })]
            : []),
          ...words(isCollectionAccum(a) ? 0 : size).map((off) =>
            m.store(
              "i64",
              m.add("i32", m.globalGet(g.prev, "i32"), m.mul("i32", v.get(), m.i32(size))),
              m.load("i64", m.add("i32", m.globalGet(qe.accumGlobal(id), "i32"), m.mul("i32", v.get(), m.i32(size))), off),
              off,
            ),
          ),
          m.store("i32", stamp.get(), m.globalGet(SELECT_EPOCH, "i32")),
        ),
      ),
    ];
  });
  // the "copied in full" test at the call site: whole-graph rounds then make no call per write
  if (full === undefined) return m.call(name, [vertex], "none");
  return m.if(m.eqz("i32", m.globalGet(full, "i32")), m.call(name, [vertex], "none"));
}

/** Offsets of the 8-byte words of a state of `size` bytes. */
function words(size: number): number[] {
  return Array.from({ length: size / 8 }, (_, i) => i * 8);
}

/** The value of `vertex.@a'`. */
export function primeRead(qe: QueryEmitter, id: number, vertex: Expr): Expr {
  return primeAccess(qe, id, vertex, false);
}

/**
 * `vertex.@a'` for a use that ends before the next write of @a (a field read): for a
 * tuple kept in place, the address of the state holding the old value, not a copy.
 */
export function primeView(qe: QueryEmitter, id: number, vertex: Expr): Expr {
  return primeAccess(qe, id, vertex, inlineTuple(qe.accumType(id)) !== undefined);
}

function primeAccess(qe: QueryEmitter, id: number, vertex: Expr, view: boolean): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const a = qe.accumType(id);
  const g = primeGlobals(qe, id);
  const size = accumSize(a);
  const read = (state: Expr) => (view ? state : accumRead(cx, a, state));
  const type = view ? "i32" : readType(qe, id);
  const name = cx.helper(qe.fn(`prime_${view ? "view" : "read"}_${id}`), [{ name: "v", type: "i32" }], type, (f) => {
    const v = f.param(0);
    const copied = m.eq("i32", m.load("i32", m.add("i32", m.globalGet(g.epoch, "i32"), m.shl("i32", v.get(), m.i32(2)))), m.globalGet(SELECT_EPOCH, "i32"));
    const base = m.select(copied, m.globalGet(g.prev, "i32"), m.globalGet(qe.accumGlobal(id), "i32"));
    const stamped = read(m.add("i32", base, m.mul("i32", v.get(), m.i32(size))));
    const full = fullCopyFlag(qe, id);
    if (full === undefined) return stamped;
    return m.if(m.globalGet(full, "i32"), read(m.add("i32", m.globalGet(g.prev, "i32"), m.mul("i32", v.get(), m.i32(size)))), stamped);
  });
  return m.call(name, [vertex], type);
}

function readType(qe: QueryEmitter, id: number): ValueType {
  return wasmType(accumValueType(qe.accumType(id)));
}
