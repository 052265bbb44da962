// FILE objects (gsql-semantics §8.4). A file's content is written when the query ends,
// like its graph writes, so a FILE value is a file number and every line goes to the
// data-modification log: `FILE f (path)` (or a FILE parameter) logs FileOpen with the path,
// `f.println(a, b, ...)` logs FileLine with the typed values; the host formats each value as
// text (vertices by their ids), joins them with commas and writes the files after a
// successful run. A FILE parameter the caller left out is file number -1: println to it is a
// runtime error.
import { Dml, RuntimeError } from "../../runtime-wasm/query/abi.js";
import type { IrExpr } from "../ir/ir.js";
import { STRING } from "../ir/types.js";
import { dmlOp, dmlRecord, dmlU32 } from "./emit-dml.js";
import { emitExpr } from "./emit-expr.js";
import { writeValue } from "./emit-write.js";
import type { Expr } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";

const FILE_COUNT = "file_count";

/** Opens a file for the path (a STRING expression); the expression's value is the new file number. */
export function fileOpen(qe: QueryEmitter, path: Expr): Expr {
  const m = qe.m;
  const count = qe.cx.ensureGlobal(FILE_COUNT, "i32");
  const n = qe.f.local("i32", "file");
  return m.block(
    null,
    [
      n.set(m.globalGet(count, "i32")),
      m.globalSet(count, m.add("i32", n.get(), m.i32(1))),
      dmlRecord(qe, [dmlOp(qe, Dml.FileOpen), dmlU32(qe, n.get()), writeValue(qe.cx, STRING, path)]),
      n.get(),
    ],
    "i32",
  );
}

/** `f.println(args...)`: one line of the file. */
export function emitPrintln(qe: QueryEmitter, file: IrExpr, args: IrExpr[]): Expr {
  const m = qe.m;
  const n = qe.f.local("i32", "file");
  return m.seq(
    n.set(emitExpr(qe, file)),
    m.if(m.lt("i32", n.get(), m.i32(0)), qe.cx.host("fail", [m.i32(RuntimeError.NoFile)])),
    dmlRecord(qe, [dmlOp(qe, Dml.FileLine), dmlU32(qe, n.get()), dmlU32(qe, m.i32(args.length)), ...args.map((a) => writeValue(qe.cx, a.type, emitExpr(qe, a)))]),
  );
}
