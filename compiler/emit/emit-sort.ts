// Sorting rows for ORDER BY: a stable merge sort of row addresses with a comparator
// generated per SELECT (its keys, ASC/DESC). Rows are [u32 vid][pad][8 bytes per key].
import type { EmitContext } from "./context.js";
import { allocBuffer, freeBuffer } from "./emit-arena.js";
import type { Expr } from "./module.js";

/**
 * Sorts `n` row addresses in `rows` (an i32 array) with comparator function `cmp`
 * (a, b) -> i32 (negative: a first). Returns nothing; the array is sorted in place.
 */
export function sortRows(cx: EmitContext, cmp: string, rows: Expr, n: Expr): Expr {
  const m = cx.m;
  const name = cx.helper(`merge_sort_${cmp}`, [{ name: "a", type: "i32" }, { name: "n", type: "i32" }], "none", (f) => {
    const [a, count] = [f.param(0), f.param(1)];
    const tmp = f.local("i32", "tmp");
    const width = f.local("i32", "width");
    const lo = f.local("i32", "lo");
    const mid = f.local("i32", "mid");
    const hi = f.local("i32", "hi");
    const i = f.local("i32", "i");
    const j = f.local("i32", "j");
    const k = f.local("i32", "k");
    const src = f.local("i32", "src");
    const dst = f.local("i32", "dst");
    const swap = f.local("i32", "swap");
    const at = (base: Expr, idx: Expr) => m.add("i32", base, m.shl("i32", idx, m.i32(2)));
    const min = (x: Expr, y: Expr, xl: () => Expr, yl: () => Expr) => m.select(m.lt("i32", x, y, true), xl(), yl());
    // bottom-up merge sort between `a` and a scratch buffer
    return [
      m.if(m.lt("i32", count.get(), m.i32(2), true), m.return()),
      tmp.set(allocBuffer(cx, m.shl("i32", count.get(), m.i32(2)))),
      src.set(a.get()),
      dst.set(tmp.get()),
      width.set(m.i32(1)),
      f.whileLoop(
        () => m.lt("i32", width.get(), count.get(), true),
        () => [
          lo.set(m.i32(0)),
          f.whileLoop(
            () => m.lt("i32", lo.get(), count.get(), true),
            () => [
              mid.set(min(m.add("i32", lo.get(), width.get()), count.get(), () => m.add("i32", lo.get(), width.get()), () => count.get())),
              hi.set(min(m.add("i32", lo.get(), m.shl("i32", width.get(), m.i32(1))), count.get(), () => m.add("i32", lo.get(), m.shl("i32", width.get(), m.i32(1))), () => count.get())),
              i.set(lo.get()),
              j.set(mid.get()),
              k.set(lo.get()),
              f.whileLoop(
                () => m.lt("i32", k.get(), hi.get(), true),
                () => [
                  // take from the left run unless the right one's head sorts strictly first
                  // (rows are compared only while both runs have one: past a run's end is not a row)
                  m.if(
                    m.if(
                      m.lt("i32", i.get(), mid.get(), true),
                      m.if(m.ge("i32", j.get(), hi.get(), true), m.i32(1), m.le("i32", m.call(cmp, [m.load("i32", at(src.get(), i.get())), m.load("i32", at(src.get(), j.get()))], "i32"), m.i32(0))),
                      m.i32(0),
                    ),
                    m.seq(m.store("i32", at(dst.get(), k.get()), m.load("i32", at(src.get(), i.get()))), i.set(m.add("i32", i.get(), m.i32(1)))),
                    m.seq(m.store("i32", at(dst.get(), k.get()), m.load("i32", at(src.get(), j.get()))), j.set(m.add("i32", j.get(), m.i32(1)))),
                  ),
                  k.set(m.add("i32", k.get(), m.i32(1))),
                ],
              ),
              lo.set(hi.get()),
            ],
          ),
          swap.set(src.get()),
          src.set(dst.get()),
          dst.set(swap.get()),
          width.set(m.shl("i32", width.get(), m.i32(1))),
        ],
      ),
      m.if(m.ne("i32", src.get(), a.get()), m.memoryCopy(a.get(), src.get(), m.shl("i32", count.get(), m.i32(2)))),
      freeBuffer(cx, tmp.get(), m.shl("i32", count.get(), m.i32(2))),
    ];
  });
  return m.call(name, [rows, n], "none");
}
