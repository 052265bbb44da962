// Writes an ACCUM or POST-ACCUM clause must hold back until it ends (gsql-semantics §4.2):
// when a target is also read in the same clause, each write is logged as a record (the
// target state's address and the operand values) and the log is replayed, in order, after
// the last row. Targets nobody reads in the clause are written directly (see the
// accumulator pass), which gives the same result without the log.
//
//   log     [len, capacity, data] (records of a fixed size per write site)
import type { IrType } from "../ir/types.js";
import { alloc, allocBuffer, freeBuffer } from "./emit-arena.js";
import type { Expr, Local } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";
import { wasmType } from "./wasm-types.js";

const LOG_HEADER = 12;

function logAppend(qe: QueryEmitter, recordBytes: number): string {
  const m = qe.m;
  const cx = qe.cx;
  return cx.helper(`log_append_${recordBytes}`, [{ name: "log", type: "i32" }], "i32", (f) => {
    const log = f.param(0);
    const cap = f.local("i32", "cap");
    const data = f.local("i32", "data");
    const at = f.local("i32", "at");
    return [
      m.if(
        m.eq("i32", m.load("i32", log.get()), m.load("i32", log.get(), 4)),
        m.seq(
          cap.set(m.select(m.eqz("i32", m.load("i32", log.get(), 4)), m.i32(64), m.shl("i32", m.load("i32", log.get(), 4), m.i32(1)))),
          data.set(allocBuffer(cx, m.mul("i32", cap.get(), m.i32(recordBytes)))),
          m.memoryCopy(data.get(), m.load("i32", log.get(), 8), m.mul("i32", m.load("i32", log.get()), m.i32(recordBytes))),
          m.if(m.load("i32", log.get(), 4), freeBuffer(cx, m.load("i32", log.get(), 8), m.mul("i32", m.load("i32", log.get(), 4), m.i32(recordBytes)))),
          m.store("i32", log.get(), data.get(), 8),
          m.store("i32", log.get(), cap.get(), 4),
        ),
      ),
      at.set(m.add("i32", m.load("i32", log.get(), 8), m.mul("i32", m.load("i32", log.get()), m.i32(recordBytes)))),
      m.store("i32", log.get(), m.add("i32", m.load("i32", log.get()), m.i32(1))),
      at.get(),
    ];
  });
}

/**
 * Logs a held-back write: `state` (address, or undefined for a variable) and operand values;
 * at the clause end `replay(state, operands)` runs for each record in order.
 */
export function deferWrite(qe: QueryEmitter, state: Expr | undefined, operands: { expr: Expr; type: IrType }[], replay: (state: Expr, operands: Expr[]) => Expr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const recordBytes = 8 + 8 * operands.length;
  const global = cx.newGlobal("log", "i32");
  qe.clause.logs.push({
    global,
    recordBytes,
    replay: (record) => {
      const ops = operands.map((o, i) => m.load(wasmType(o.type), record(), 8 + 8 * i));
      return replay(m.load("i32", record()), ops);
    },
  });
  const rec = qe.f.local("i32", "rec");
  return m.seq(
    m.if(m.eqz("i32", m.globalGet(global, "i32")), m.globalSet(global, allocZeroedLog(qe))),
    rec.set(m.call(logAppend(qe, recordBytes), [m.globalGet(global, "i32")], "i32")),
    m.store("i32", rec.get(), state ?? m.i32(0)),
    ...operands.map((o, i) => m.store(wasmType(o.type), rec.get(), o.expr, 8 + 8 * i)),
  );
}

function allocZeroedLog(qe: QueryEmitter): Expr {
  const m = qe.m;
  const cx = qe.cx;
  const name = cx.helper("log_new", [], "i32", (f) => {
    const p = f.local("i32", "p");
    return [p.set(alloc(cx, m.i32(LOG_HEADER))), m.memoryFill(p.get(), m.i32(0), m.i32(LOG_HEADER)), p.get()];
  });
  return m.call(name, [], "i32");
}

/** At the clause end: replays every log of the clause in order, then empties it. */
export function replayLogs(qe: QueryEmitter): Expr {
  const m = qe.m;
  const f = qe.f;
  const out: Expr[] = [m.nop()];
  for (const log of qe.clause.logs) {
    const i = f.local("i32", "ri");
    const lg = f.local("i32", "lg");
    const rec: Local = f.local("i32", "rr");
    out.push(
      lg.set(m.globalGet(log.global, "i32")),
      m.if(
        lg.get(),
        m.seq(
          f.forRange(i, m.i32(0), m.load("i32", lg.get()), () => [
            rec.set(m.add("i32", m.load("i32", lg.get(), 8), m.mul("i32", i.get(), m.i32(log.recordBytes)))),
            log.replay(() => rec.get()),
          ]),
          m.store("i32", lg.get(), m.i32(0)),
        ),
      ),
    );
  }
  return m.seq(...out);
}
