// `@@m += (k1 -> (k2 -> v))`: an entry whose value is itself an entry, for a MapAccum whose
// values are MapAccums (or GroupByAccums, at the innermost level). Each outer level finds or
// adds its key and initialises a new value accumulator; the innermost entry is accumulated
// into the value it reaches, as a plain entry would be.
import type { IrExpr } from "../ir/ir.js";
import type { IrAccum, IrType } from "../ir/types.js";
import type { EmitContext } from "./context.js";
import { accumInit, accumTag, accumulateEntry, containerOf } from "./emit-accum.js";
import { Entry, HT_INSERTED, htInsert } from "./emit-hash-table.js";
import type { Expr } from "./module.js";
import { UnsupportedError } from "./query-emitter.js";
import { typeTag, wasmType } from "./wasm-types.js";

type EntryExpr = Extract<IrExpr, { e: "entry" }>;

/** The levels of a nested entry, outermost first: each level's keys, and the innermost values. */
export function nestedLevels(value: EntryExpr): { keys: IrExpr[][]; values: IrExpr[] } | undefined {
  const inner = value.values.length === 1 ? value.values[0] : undefined;
  if (inner?.e !== "entry") return undefined;
  const rest = nestedLevels(inner) ?? { keys: [inner.keys], values: inner.values };
  return { keys: [value.keys, ...rest.keys], values: rest.values };
}

/** Accumulates a nested entry (its operands flattened: every level's keys, then the values) into `state`. */
export function accumulateNested(cx: EmitContext, a: IrAccum, state: Expr, levels: { keys: IrType[][]; values: IrType[] }, operands: Expr[]): Expr {
  const m = cx.m;
  const types = [...levels.keys.flat(), ...levels.values];
  const name = cx.helper(
    `acc_nested_${accumTag(a)}_${levels.keys.map((k) => k.length).join("")}_${types.map(typeTag).join("_")}`,
    [{ name: "s", type: "i32" }, ...types.map((t, i) => ({ name: `o${i}`, type: wasmType(t) }))],
    "none",
    (f) => {
      const body: Expr[] = [];
      let at = (): Expr => f.param(0).get();
      let acc = a;
      let next = 1;
      for (let level = 0; level < levels.keys.length - 1; level++) {
        if (acc.a !== "map" || levels.keys[level]!.length !== 1) throw new UnsupportedError(`a nested entry (k -> (k2 -> v)) into a ${acc.a} accumulator`);
        const e = f.local("i32", `e${level}`);
        const map = acc;
        const stateOf = at;
        body.push(
          e.set(htInsert(cx, map.key, containerOf(cx, map, stateOf()), f.param(next).get())),
          m.if(m.globalGet(HT_INSERTED, "i32"), accumInit(cx, map.value, m.add("i32", e.get(), m.i32(Entry.value)))),
        );
        next += 1;
        at = () => m.add("i32", e.get(), m.i32(Entry.value));
        acc = map.value;
      }
      const last = levels.keys[levels.keys.length - 1]!;
      const keys = last.map((t, i) => ({ expr: f.param(next + i).get(), type: t }));
      const values = levels.values.map((t, i) => ({ expr: f.param(next + last.length + i).get(), type: t }));
      body.push(accumulateEntry(cx, acc, at(), keys, values));
      return body;
    },
  );
  return m.call(name, [state, ...operands], "none");
}
