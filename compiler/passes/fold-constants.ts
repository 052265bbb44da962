// Constant folding and dead-code removal (the cheap passes every install runs): arithmetic
// and comparisons of constants are computed with the language's rules (64-bit wrap-around,
// integer division toward zero; a division by a constant zero is left for the run to
// report), conditions known at compile time drop their dead branches, and statements after
// RETURN / BREAK / CONTINUE / RAISE in the same block are removed.
import type { IrExpr, IrQuery, IrStmt } from "../ir/ir.js";
import { isIntegerType, scalar } from "../ir/types.js";
import { mapStmtExprs } from "./rewrite-ir.js";
import { childBodies } from "./walk-ir.js";

export function foldConstants(q: IrQuery): IrQuery {
  q.body = foldBlock(q.body);
  return q;
}

function foldBlock(stmts: IrStmt[]): IrStmt[] {
  const out: IrStmt[] = [];
  for (const s of stmts) {
    const folded = foldStmt(s);
    out.push(...folded);
    const last = folded[folded.length - 1];
    if (last && (last.s === "return" || last.s === "break" || last.s === "continue" || last.s === "raise")) break;
  }
  return out;
}

function foldStmt(s: IrStmt): IrStmt[] {
  mapStmtExprs(s, fold);
  switch (s.s) {
    case "if": {
      const branches: typeof s.branches = [];
      for (const b of s.branches) {
        if (b.cond.e === "const" && b.cond.value === false) continue;
        if (b.cond.e === "const" && b.cond.value === true) {
          // the first always-true branch ends the chain
          if (branches.length === 0) return foldBlock(b.body);
          return [{ s: "if", branches: branches.map((x) => ({ cond: x.cond, body: foldBlock(x.body) })), otherwise: foldBlock(b.body) }];
        }
        branches.push(b);
      }
      if (branches.length === 0) return s.otherwise ? foldBlock(s.otherwise) : [];
      return [{ s: "if", branches: branches.map((b) => ({ cond: b.cond, body: foldBlock(b.body) })), otherwise: s.otherwise ? foldBlock(s.otherwise) : undefined }];
    }
    case "while":
      if (s.cond.e === "const" && s.cond.value === false) return [];
      s.body = foldBlock(s.body);
      return [s];
    case "select":
      s.select.accum = foldBlock(s.select.accum);
      for (const p of s.select.postAccum) p.body = foldBlock(p.body);
      return [s];
    default:
      for (const body of childBodies(s)) {
        const folded = foldBlock(body);
        body.splice(0, body.length, ...folded);
      }
      return [s];
  }
}

const MASK64 = (1n << 64n) - 1n;

function wrap(v: bigint, unsigned: boolean): bigint {
  return unsigned ? v & MASK64 : BigInt.asIntN(64, v);
}

/** Folds an expression bottom-up. */
export function fold(x: IrExpr): IrExpr {
  switch (x.e) {
    case "binary": {
      const l = fold(x.left);
      const r = fold(x.right);
      const folded = foldBinary(x, l, r);
      return folded ?? { ...x, left: l, right: r };
    }
    case "unary": {
      const a = fold(x.arg);
      if (a.e === "const") {
        if (x.op === "not" && typeof a.value === "boolean") return { e: "const", type: x.type, value: !a.value };
        if (x.op === "neg" && typeof a.value === "bigint") return { e: "const", type: x.type, value: wrap(-a.value, scalar(x.type, "UINT")) };
        if (x.op === "neg" && typeof a.value === "number") return { e: "const", type: x.type, value: -a.value };
      }
      return { ...x, arg: a };
    }
    case "convert": {
      const a = fold(x.arg);
      if (a.e === "const" && x.type.t === "scalar" && a.type.t === "scalar") {
        const v = convertConst(a.value, a.type.name, x.type.name);
        if (v !== undefined) return { e: "const", type: x.type, value: v };
      }
      return { ...x, arg: a };
    }
    case "cond": {
      const branches = x.branches.map((b) => ({ cond: fold(b.cond), value: fold(b.value) }));
      return { ...x, branches, otherwise: fold(x.otherwise) };
    }
    default:
      return x;
  }
}

function convertConst(v: unknown, from: string, to: string): bigint | number | undefined {
  if (to === "DOUBLE") return typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : undefined;
  if (to === "FLOAT") return typeof v === "bigint" ? Math.fround(Number(v)) : typeof v === "number" ? Math.fround(v) : undefined;
  if (to === "INT" || to === "UINT") {
    if (typeof v === "bigint") return wrap(v, to === "UINT");
    if (typeof v === "number" && Number.isFinite(v) && Math.abs(v) < 9.2e18) return wrap(BigInt(Math.trunc(v)), to === "UINT");
  }
  void from;
  return undefined;
}

function foldBinary(x: Extract<IrExpr, { e: "binary" }>, l: IrExpr, r: IrExpr): IrExpr | undefined {
  if (x.op === "and" || x.op === "or") {
    if (l.e === "const" && typeof l.value === "boolean") {
      if (x.op === "and") return l.value ? r : l;
      return l.value ? l : r;
    }
    return undefined;
  }
  if (l.e !== "const" || r.e !== "const") return undefined;
  const a = l.value;
  const b = r.value;
  const t = l.type;
  const result = (value: bigint | number | boolean | string): IrExpr => ({ e: "const", type: x.type, value });
  if (typeof a === "bigint" && typeof b === "bigint" && isIntegerType(t)) {
    const u = scalar(t, "UINT");
    const ua = u ? a & MASK64 : a;
    const ub = u ? b & MASK64 : b;
    switch (x.op) {
      case "add":
        return result(wrap(ua + ub, u));
      case "sub":
        return result(wrap(ua - ub, u));
      case "mul":
        return result(wrap(ua * ub, u));
      case "div":
        return ub === 0n ? undefined : result(wrap(ua / ub, u));
      case "mod":
        return ub === 0n ? undefined : result(wrap(ua % ub, u));
      case "eq":
        return result(ua === ub);
      case "ne":
        return result(ua !== ub);
      case "lt":
        return result(ua < ub);
      case "le":
        return result(ua <= ub);
      case "gt":
        return result(ua > ub);
      case "ge":
        return result(ua >= ub);
      default:
        return undefined;
    }
  }
  if (typeof a === "number" && typeof b === "number" && scalar(t, "DOUBLE")) {
    switch (x.op) {
      case "add":
        return result(a + b);
      case "sub":
        return result(a - b);
      case "mul":
        return result(a * b);
      case "div":
        return b === 0 ? undefined : result(a / b);
      case "lt":
        return result(a < b);
      case "le":
        return result(a <= b);
      case "gt":
        return result(a > b);
      case "ge":
        return result(a >= b);
      default:
        return undefined;
    }
  }
  if (typeof a === "string" && typeof b === "string" && x.op === "concat") return result(a + b);
  return undefined;
}
