// Strength reduction (-OPTIMIZE): arithmetic by constants rewritten into cheaper operations
// that give bit-for-bit the same result.
// - DOUBLE/FLOAT `x / c` with c a power of two: `x * (1/c)` (1/c is exact, so both round the
//   same real number); this also drops the division's zero check.
// - INT/UINT `x * 2^k`: `x << k` (both wrap modulo 2^64); UINT `x / 2^k`: `x >> k`,
//   UINT `x % 2^k`: `x & (2^k - 1)`. (Not INT division: it truncates toward zero, a shift
//   rounds down.)
// - `x * 1`, `x / 1`, `x + 0`, `x - 0` on integers: `x`.
import type { IrExpr, IrQuery } from "../ir/ir.js";
import { isIntegerType, scalar } from "../ir/types.js";
import { allBlocks } from "./effects.js";
import { mapChildren, mapStmtExprs } from "./rewrite-ir.js";

export function reduceStrength(q: IrQuery): IrQuery {
  allBlocks(q.body, (block) => {
    for (const s of block) mapStmtExprs(s, reduce);
  });
  return q;
}

export function reduce(x: IrExpr): IrExpr {
  const y = mapChildren(x, reduce);
  if (y.e !== "binary" || y.right.e !== "const") return y;
  const c = y.right.value;
  if (typeof c === "number" && scalar(y.type, "DOUBLE", "FLOAT") && y.op === "div" && isPowerOfTwo(c, scalar(y.type, "FLOAT") ? 126 : 1022)) {
    return { ...y, op: "mul", right: { ...y.right, value: 1 / c } };
  }
  if (typeof c !== "bigint" || !isIntegerType(y.type)) return y;
  const unsigned = scalar(y.type, "UINT");
  const n = unsigned ? BigInt.asUintN(64, c) : c;
  if ((y.op === "mul" || y.op === "div") && n === 1n) return y.left;
  if ((y.op === "add" || y.op === "sub") && n === 0n) return y.left;
  const k = log2(n);
  if (k === undefined || k === 0) return y;
  const shift: IrExpr = { e: "const", type: y.type, value: BigInt(k) };
  if (y.op === "mul") return { ...y, op: "shl", right: shift };
  if (unsigned && y.op === "div") return { ...y, op: "shr", right: shift };
  if (unsigned && y.op === "mod") return { ...y, op: "bitand", right: { e: "const", type: y.type, value: n - 1n } };
  return y;
}

/** ±2^k with |k| <= maxExponent (so that 1/c is exact in the type). */
function isPowerOfTwo(c: number, maxExponent: number): boolean {
  if (!Number.isFinite(c) || c === 0) return false;
  const e = Math.log2(Math.abs(c));
  return Number.isInteger(e) && Math.abs(e) <= maxExponent && Math.abs(c) === 2 ** e;
}

/** k when n is 2^k (k in 1..62, n positive), else undefined. */
function log2(n: bigint): number | undefined {
  if (n <= 1n || (n & (n - 1n)) !== 0n) return undefined;
  const k = n.toString(2).length - 1;
  return k <= 62 ? k : undefined;
}
