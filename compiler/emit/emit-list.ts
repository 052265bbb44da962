// ListAccum (and LIST values) in linear memory: a header [len, capacity, data] and a data
// buffer of fixed-width elements that doubles when full. Functions are specialised per
// element type: by width for moving values, by type for equality.
import type { IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { alloc, allocBuffer, freeBuffer } from "./emit-arena.js";
import { defaultValue, eqValue, loadValue, storeValue } from "./emit-values.js";
import type { Expr } from "./module.js";
import { typeTag, valueWidth, wasmType } from "./wasm-types.js";

export const ListHeader = { len: 0, cap: 4, data: 8, size: 16 } as const;

/** A new empty list. */
export function listNew(cx: EmitContext): Expr {
  const m = cx.m;
  const name = cx.helper("list_new", [], "i32", (f) => {
    const p = f.local("i32", "p");
    return [p.set(alloc(cx, m.i32(ListHeader.size))), m.memoryFill(p.get(), m.i32(0), m.i32(ListHeader.size)), p.get()];
  });
  return m.call(name, [], "i32");
}

export function listLength(cx: EmitContext, list: Expr): Expr {
  return cx.m.load("i32", list, ListHeader.len);
}

/** Address of element `i` (no bounds check). */
export function listElementAddress(cx: EmitContext, elem: IrType, list: Expr, i: Expr): Expr {
  const m = cx.m;
  return m.add("i32", m.load("i32", list, ListHeader.data), m.mul("i32", i, m.i32(valueWidth(elem))));
}

/** Makes room for one more element (doubling the buffer). */
function listReserve(cx: EmitContext, width: number): string {
  const m = cx.m;
  return cx.helper(`list_reserve_${width}`, [{ name: "l", type: "i32" }], "none", (f) => {
    const l = f.param(0);
    const cap = f.local("i32", "cap");
    const data = f.local("i32", "data");
    return [
      m.if(
        m.eq("i32", m.load("i32", l.get(), ListHeader.len), m.load("i32", l.get(), ListHeader.cap)),
        m.seq(
          cap.set(m.select(m.eqz("i32", m.load("i32", l.get(), ListHeader.cap)), m.i32(4), m.shl("i32", m.load("i32", l.get(), ListHeader.cap), m.i32(1)))),
          data.set(allocBuffer(cx, m.mul("i32", cap.get(), m.i32(width)))),
          m.memoryCopy(data.get(), m.load("i32", l.get(), ListHeader.data), m.mul("i32", m.load("i32", l.get(), ListHeader.len), m.i32(width))),
          m.if(
            m.load("i32", l.get(), ListHeader.cap),
            freeBuffer(cx, m.load("i32", l.get(), ListHeader.data), m.mul("i32", m.load("i32", l.get(), ListHeader.cap), m.i32(width))),
          ),
          m.store("i32", l.get(), data.get(), ListHeader.data),
          m.store("i32", l.get(), cap.get(), ListHeader.cap),
        ),
      ),
    ];
  });
}

/** Appends `value`. */
export function listPush(cx: EmitContext, elem: IrType, list: Expr, value: Expr): Expr {
  const m = cx.m;
  const vt = wasmType(elem);
  const w = valueWidth(elem);
  const name = cx.helper(`list_push_${vt}`, [{ name: "l", type: "i32" }, { name: "v", type: vt }], "none", (f) => {
    const l = f.param(0);
    return [
      m.call(listReserve(cx, w), [l.get()], "none"),
      m.store(vt, listElementAddress(cx, elem, l.get(), m.load("i32", l.get(), ListHeader.len)), f.param(1).get()),
      m.store("i32", l.get(), m.add("i32", m.load("i32", l.get(), ListHeader.len), m.i32(1)), ListHeader.len),
    ];
  });
  return m.call(name, [list, value], "none");
}

/** Element `i`, or the element type's default when `i` is out of range (`list` may be 0: empty). */
export function listGet(cx: EmitContext, elem: IrType, list: Expr, index: Expr): Expr {
  const m = cx.m;
  const vt = wasmType(elem);
  const name = cx.helper(`list_get_${typeTag(elem)}`, [{ name: "l", type: "i32" }, { name: "i", type: "i64" }], vt, (f) => {
    const l = f.param(0);
    const i = f.param(1);
    return m.if(
      m.and("i32", m.ne("i32", l.get(), m.i32(0)), m.lt("i64", i.get(), m.convert("i32", "i64", m.load("i32", l.get(), ListHeader.len), true), true)),
      loadValue(cx, elem, listElementAddress(cx, elem, l.get(), m.convert("i64", "i32", i.get()))),
      defaultValue(cx, elem),
    );
  });
  return m.call(name, [list, index], vt);
}

/** update(i, v): 1 when `i` was in range. */
export function listUpdate(cx: EmitContext, elem: IrType, list: Expr, index: Expr, value: Expr): Expr {
  const m = cx.m;
  const vt = wasmType(elem);
  const name = cx.helper(`list_update_${vt}`, [{ name: "l", type: "i32" }, { name: "i", type: "i64" }, { name: "v", type: vt }], "i32", (f) => {
    const [l, i] = [f.param(0), f.param(1)];
    return m.if(
      m.lt("i64", i.get(), m.convert("i32", "i64", m.load("i32", l.get(), ListHeader.len), true), true),
      m.block(null, [storeValue(cx, elem, listElementAddress(cx, elem, l.get(), m.convert("i64", "i32", i.get())), f.param(2).get()), m.i32(1)], "i32"),
      m.i32(0),
    );
  });
  return m.call(name, [list, index, value], "i32");
}

/** remove(i): shifts the tail down; 1 when `i` was in range. */
export function listRemoveAt(cx: EmitContext, elem: IrType, list: Expr, index: Expr): Expr {
  const m = cx.m;
  const w = valueWidth(elem);
  const name = cx.helper(`list_remove_at_${w}`, [{ name: "l", type: "i32" }, { name: "i", type: "i64" }], "i32", (f) => {
    const [l, i] = [f.param(0), f.param(1)];
    const len = f.local("i32", "len");
    const at = f.local("i32", "at");
    return [
      len.set(m.load("i32", l.get(), ListHeader.len)),
      m.if(m.ge("i64", i.get(), m.convert("i32", "i64", len.get(), true), true), m.return(m.i32(0))),
      at.set(listElementAddress(cx, elem, l.get(), m.convert("i64", "i32", i.get()))),
      m.memoryCopy(at.get(), m.add("i32", at.get(), m.i32(w)), m.mul("i32", m.sub("i32", m.sub("i32", len.get(), m.convert("i64", "i32", i.get())), m.i32(1)), m.i32(w))),
      m.store("i32", l.get(), m.sub("i32", len.get(), m.i32(1)), ListHeader.len),
      m.i32(1),
    ];
  });
  return m.call(name, [list, index], "i32");
}

/**
 * Removes the first (`all` false) or every element equal to `value`; 1 when one was
 * removed. Also contains (`mode` "contains": nothing removed).
 */
export function listFind(cx: EmitContext, elem: IrType, list: Expr, value: Expr, mode: "contains" | "removeOne" | "removeAll"): Expr {
  const m = cx.m;
  const vt = wasmType(elem);
  const w = valueWidth(elem);
  const name = cx.helper(`list_${mode}_${typeTag(elem)}`, [{ name: "l", type: "i32" }, { name: "v", type: vt }], "i32", (f) => {
    const [l, v] = [f.param(0), f.param(1)];
    const i = f.local("i32", "i");
    const out = f.local("i32", "out");
    const found = f.local("i32", "found");
    const len = f.local("i32", "len");
    const at = (k: Expr) => listElementAddress(cx, elem, l.get(), k);
    if (mode === "contains") {
      return [
        m.if(m.eqz("i32", l.get()), m.return(m.i32(0))),
        f.forRange(i, m.i32(0), m.load("i32", l.get(), ListHeader.len), () => [m.if(eqValue(cx, elem, loadValue(cx, elem, at(i.get())), v.get()), m.return(m.i32(1)))]),
        m.i32(0),
      ];
    }
    // Compacts in place: keeps every element but the removed ones.
    return [
      m.if(m.eqz("i32", l.get()), m.return(m.i32(0))),
      len.set(m.load("i32", l.get(), ListHeader.len)),
      f.forRange(i, m.i32(0), len.get(), () => [
        m.if(
          m.and("i32", eqValue(cx, elem, loadValue(cx, elem, at(i.get())), v.get()), mode === "removeOne" ? m.eqz("i32", found.get()) : m.i32(1)),
          found.set(m.i32(1)),
          m.seq(m.memoryCopy(at(out.get()), at(i.get()), m.i32(w)), out.set(m.add("i32", out.get(), m.i32(1)))),
        ),
      ]),
      m.store("i32", l.get(), out.get(), ListHeader.len),
      found.get(),
    ];
  });
  return m.call(name, [list, value], "i32");
}

/** Empties the list (keeps its buffer). */
export function listClear(cx: EmitContext, list: Expr): Expr {
  const m = cx.m;
  const name = cx.helper("list_clear", [{ name: "l", type: "i32" }], "none", (f) =>
    m.if(f.param(0).get(), m.store("i32", f.param(0).get(), m.i32(0), ListHeader.len)),
  );
  return m.call(name, [list], "none");
}
