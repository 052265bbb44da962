// The run's parameters: the prologue reads each one from the parameter block (see
// runtime-wasm/query/param-block.ts) into its variable, and remembers whether it was given
// (`p IS NULL`). SET/BAG/LIST parameters become containers like the accumulators they
// behave as. The block's layout depends on the number of bindings, known only once the
// whole query is emitted, so the reading function is defined last.
import { paramsOffset, PARAM_SLOT_BYTES } from "../../runtime-wasm/query/param-block.js";
import type { ParamType } from "../../runtime-wasm/query/manifest.js";
import type { IrType } from "../ir/types.js";
import { accumAdd, newContainer } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { GG } from "./emit-graph.js";
import { strMake } from "./emit-strings.js";
import { fileOpen } from "./emit-file.js";
import type { Expr } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";
import { wasmType } from "./wasm-types.js";

const INIT_PARAMS = "init_params";

export function paramsPrologue(qe: QueryEmitter): Expr {
  return qe.m.call(INIT_PARAMS, [], "none");
}

export function paramPresent(qe: QueryEmitter, id: number): Expr {
  return qe.m.globalGet(qe.ownGlobal(`present${id}`, "i32"), "i32");
}

/** How the host encodes a parameter of IR type `t`. */
export function paramType(t: IrType): ParamType {
  if (t.t === "scalar") return { base: t.name };
  // a FILE parameter is given as its path
  if (t.t === "file") return { base: "STRING" };
  if (t.t === "vertex") return { base: "VERTEX", vertexType: t.vertexType };
  if (t.t === "json") return { base: t.name };
  if (t.t === "accum" && (t.accum.a === "set" || t.accum.a === "bag" || t.accum.a === "list")) {
    const inner = paramType(t.accum.elem);
    return { ...inner, collection: t.accum.a === "set" ? "SET" : t.accum.a === "bag" ? "BAG" : "LIST" };
  }
  throw new UnsupportedError(`a parameter of this type`);
}

/** Decodes one 8-byte encoded value at `at` (strings are offsets from the block start). */
function decodeValue(qe: QueryEmitter, t: IrType, at: () => Expr): Expr {
  const m = qe.m;
  const block = () => m.globalGet(GG.params, "i32");
  // a JSON value is held as its canonical text (the host checked and canonicalised it)
  if ((t.t === "scalar" && t.name === "STRING") || t.t === "json") return strMake(qe.cx, m.add("i32", block(), m.load("i32", at())), m.load("i32", at(), 4));
  return m.load(wasmType(t), at());
}

export function finishParams(qe: QueryEmitter): void {
  const m = qe.m;
  const cx = qe.cx;
  const base = paramsOffset(cx.bindings.length);
  m.func(INIT_PARAMS, [], "none", (f) =>
    qe.inFunction(f, () => {
      const body: Expr[] = [m.nop()];
      for (const id of qe.ir.params) {
        const v = qe.variable(id);
        const slot = base + PARAM_SLOT_BYTES * (v.paramIndex ?? 0);
        const slotAt = () => m.add("i32", m.globalGet(GG.params, "i32"), m.i32(slot));
        const present = qe.ownGlobal(`present${id}`, "i32");
        body.push(m.globalSet(present, m.load("i32", slotAt())));
        if (v.type.t === "accum") {
          const acc = v.type.accum;
          if (acc.a !== "set" && acc.a !== "bag" && acc.a !== "list") throw new UnsupportedError("a parameter of this type");
          const cell = f.local("i32", "cell");
          const i = f.local("i32", "i");
          const elems = f.local("i32", "elems");
          const elem = acc.elem;
          body.push(
            cell.set(alloc(cx, m.i32(8))),
            m.store("i32", cell.get(), newContainer(cx, acc)),
            elems.set(m.add("i32", m.globalGet(GG.params, "i32"), m.load("i32", slotAt(), 8))),
            m.if(
              m.globalGet(present, "i32"),
              f.forRange(i, m.i32(0), m.load("i32", slotAt(), 12), () => [
                accumAdd(cx, acc, cell.get(), decodeValue(qe, elem, () => m.add("i32", elems.get(), m.shl("i32", i.get(), m.i32(3)))), elem),
              ]),
            ),
            qe.writeVar(id, m.load("i32", cell.get())),
          );
        } else if (v.type.t === "file") {
          const path = decodeValue(qe, { t: "scalar", name: "STRING" }, () => m.add("i32", slotAt(), m.i32(8)));
          body.push(qe.writeVar(id, m.if(m.globalGet(present, "i32"), fileOpen(qe, path), m.i32(-1))));
        } else {
          const value = decodeValue(qe, v.type, () => m.add("i32", slotAt(), m.i32(8)));
          body.push(qe.writeVar(id, m.if(m.globalGet(present, "i32"), value, v.type.t === "vertex" ? m.i32(-1) : m.constant(wasmType(v.type), 0))));
        }
      }
      return body;
    }),
  );
}
