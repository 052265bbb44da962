// `state = value` for the two collection accumulators whose operand is not a list of
// elements: a GroupByAccum (every entry's keys and value accumulators) and an ArrayAccum
// (its dimensions and every cell). The prime (`@x'`) of a vertex accumulator of either kind
// keeps such a copy of the state as it was before the SELECT's first write to it.
import type { IrAccum } from "../ir/types.js";
import { accumValueType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { accumAssign, accumInit, accumRead, accumSize, accumTag, allocStates, groupByKeyTuple, groupByOffsets } from "./emit-accum.js";
import { alloc } from "./emit-arena.js";
import { Entry, htClear, htForEach, htInsert, htNew, HT_INSERTED } from "./emit-hash-table.js";
import { ArrayHeader } from "./emit-write.js";
import type { Expr } from "./module.js";

type GroupBy = Extract<IrAccum, { a: "groupby" }>;
type ArrayAccum = Extract<IrAccum, { a: "array" }>;

/** Makes the GroupByAccum at `state` an entry-by-entry copy of container `source` (0: empty). */
export function groupByAssign(cx: EmitContext, a: GroupBy, state: Expr, source: Expr): Expr {
  const m = cx.m;
  const keyTuple = groupByKeyTuple(a);
  const { offsets, size } = groupByOffsets(a);
  const name = cx.helper(`acc_copy_${accumTag(a)}`, [{ name: "s", type: "i32" }, { name: "c", type: "i32" }], "none", (f) => {
    const [s, c] = [f.param(0), f.param(1)];
    const e = f.local("i32", "e");
    return m.if(
      m.ne("i32", m.load("i32", s.get()), c.get()),
      m.seq(
        m.if(m.eqz("i32", m.load("i32", s.get())), m.store("i32", s.get(), htNew(cx, size)), htClear(cx, m.load("i32", s.get()))),
        htForEach(cx, f, c.get(), (from) => [
          // key tuples are immutable: the copy shares them
          e.set(htInsert(cx, keyTuple, m.load("i32", s.get()), m.load("i32", from.get(), Entry.key))),
          m.if(m.globalGet(HT_INSERTED, "i32"), m.seq(...a.values.map((v, i) => accumInit(cx, v.accum, m.add("i32", e.get(), m.i32(Entry.value + offsets[i]!)))))),
          ...a.values.map((v, i) =>
            accumAssign(
              cx, v.accum,
              m.add("i32", e.get(), m.i32(Entry.value + offsets[i]!)),
              accumRead(cx, v.accum, m.add("i32", from.get(), m.i32(Entry.value + offsets[i]!))),
              accumValueType(v.accum),
            ),
          ),
        ]),
      ),
    );
  });
  return m.call(name, [state, source], "none");
}

/** Makes the ArrayAccum at `state` a copy of array `source` (0: none): same sizes, each cell assigned. */
export function arrayAssign(cx: EmitContext, a: ArrayAccum, state: Expr, source: Expr): Expr {
  const m = cx.m;
  const cell = accumSize(a.elem);
  const name = cx.helper(`acc_copy_${accumTag(a)}`, [{ name: "s", type: "i32" }, { name: "c", type: "i32" }], "none", (f) => {
    const [s, c] = [f.param(0), f.param(1)];
    const d = f.local("i32", "d");
    const i = f.local("i32", "i");
    const cells = () => m.load("i32", c.get(), ArrayHeader.cells);
    const sameShape = m.and(
      "i32",
      m.ne("i32", m.load("i32", s.get()), m.i32(0)),
      m.eq("i32", m.load("i32", m.load("i32", s.get()), ArrayHeader.cells), cells()),
    );
    return m.if(
      m.and("i32", m.ne("i32", c.get(), m.i32(0)), m.ne("i32", m.load("i32", s.get()), c.get())),
      m.seq(
        // a new header and cells unless the copy already has as many cells
        m.if(
          m.eqz("i32", sameShape),
          m.seq(
            m.store("i32", s.get(), alloc(cx, m.i32(ArrayHeader.size))),
            m.store("i32", m.load("i32", s.get()), cells(), ArrayHeader.cells),
            m.store("i32", m.load("i32", s.get()), allocStates(cx, f, a.elem, cells()), ArrayHeader.data),
          ),
        ),
        m.store("i32", m.load("i32", s.get()), m.load("i32", c.get(), ArrayHeader.dims), ArrayHeader.dims),
        f.forRange(d, m.i32(0), m.i32(5), () => [
          m.store("i32", m.add("i32", m.load("i32", s.get()), m.shl("i32", d.get(), m.i32(2))),
            m.load("i32", m.add("i32", c.get(), m.shl("i32", d.get(), m.i32(2))), ArrayHeader.sizes), ArrayHeader.sizes),
        ]),
        f.forRange(i, m.i32(0), cells(), () => {
          const at = (arr: Expr) => m.add("i32", m.load("i32", arr, ArrayHeader.data), m.mul("i32", i.get(), m.i32(cell)));
          return [accumAssign(cx, a.elem, at(m.load("i32", s.get())), accumRead(cx, a.elem, at(c.get())), accumValueType(a.elem))];
        }),
      ),
    );
  });
  return m.call(name, [state, source], "none");
}
