// FILE objects (gsql-semantics §8.4): `FILE f (path)` starts the file empty, `f.println(...)`
// and `PRINT ... TO_CSV f` add lines. The module writes FileOpen / FileLine records into its
// output stream; the host turns them into text (values separated by commas, list elements
// by spaces, vertices by their ids) and writes the files when the query has succeeded.
import { Out } from "../../runtime-wasm/query/abi.js";
import type { IrExpr } from "../ir/ir.js";
import { emitExpr } from "./emit-expr.js";
import { outTag, outTagString, outTagValue } from "./emit-output.js";
import { writeValue } from "./emit-write.js";
import type { Expr } from "./module.js";
import type { QueryEmitter } from "./query-emitter.js";

/** Run-wide counter numbering the files a run declares. */
const FILE_COUNT = "file_count";

/** Declares a file: a new file number, and a FileOpen record (the file starts empty). */
export function fileOpen(qe: QueryEmitter, path: Expr): Expr {
  const m = qe.m;
  const cx = qe.cx;
  cx.ensureGlobal(FILE_COUNT, "i32");
  const name = cx.helper("file_open", [{ name: "path", type: "i64" }], "i32", (f) => {
    const h = f.local("i32", "h");
    return [
      h.set(m.globalGet(FILE_COUNT, "i32")),
      m.globalSet(FILE_COUNT, m.add("i32", h.get(), m.i32(1))),
      // FileOpen: tag and file number, then the path as a String item
      outTagValue(cx, Out.FileOpen, "i32", h.get()),
      outTagString(cx, Out.String, f.param(0).get()),
      h.get(),
    ];
  });
  return m.call(name, [path], "i32");
}

/** One line of values for file `handle`. */
export function fileLine(qe: QueryEmitter, handle: Expr, values: IrExpr[]): Expr {
  const m = qe.m;
  const cx = qe.cx;
  return m.seq(outTagValue(cx, Out.FileLine, "i32", handle), ...values.map((v) => writeValue(cx, v.type, emitExpr(qe, v))), outTag(cx, Out.End));
}
