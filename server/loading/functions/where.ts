// WHERE clauses and INPUT_LINE_FILTER rules (gsql-ddl-loading-shell §7.4), compiled once
// into predicates over a row. Operands are strings; to_int/to_float, number literals and
// arithmetic make numbers. A comparison of two strings is by code units; if either side is
// a number, both are compared as numbers, and a side that is not numeric makes the
// comparison false. The WHERE-only functions are disjoint from the token functions.
import type { CompareOp, PlanCondition, ValueExpr, WhereExpr } from "../plan.js";
import { LoadError } from "../errors.js";
import { isTrueText } from "./token-functions.js";

export type TokenGetter<R> = (row: R) => string | undefined;
type Operand = string | number;

/** Compiles a condition; `compileToken` turns a token expression into a getter. */
export function compileCondition<R>(cond: PlanCondition, compileToken: (e: ValueExpr) => TokenGetter<R>): (row: R) => boolean {
  const operand = (e: WhereExpr) => compileOperand(e, compileToken);
  switch (cond.kind) {
    case "constant":
      return () => cond.value;
    case "and": {
      const [l, r] = [compileCondition(cond.left, compileToken), compileCondition(cond.right, compileToken)];
      return (row) => l(row) && r(row);
    }
    case "or": {
      const [l, r] = [compileCondition(cond.left, compileToken), compileCondition(cond.right, compileToken)];
      return (row) => l(row) || r(row);
    }
    case "not": {
      const inner = compileCondition(cond.operand, compileToken);
      return (row) => !inner(row);
    }
    case "compare": {
      const [l, r] = [operand(cond.left), operand(cond.right)];
      const op = cond.op;
      return (row) => compare(op, l(row), r(row));
    }
    case "is_numeric": {
      const v = operand(cond.operand);
      return negate(cond.negated, (row) => isNumericOperand(v(row)));
    }
    case "is_empty": {
      const v = operand(cond.operand);
      return negate(cond.negated, (row) => v(row) === "");
    }
    case "in": {
      const v = operand(cond.operand);
      const values = cond.values.map(operand);
      return negate(cond.negated, (row) => {
        const x = v(row);
        return values.some((c) => compare("==", x, c(row)));
      });
    }
    case "between": {
      const [v, lo, hi] = [operand(cond.operand), operand(cond.low), operand(cond.high)];
      return negate(cond.negated, (row) => {
        const x = v(row);
        return compare(">=", x, lo(row)) && compare("<=", x, hi(row));
      });
    }
    case "predicate":
      return compilePredicate(cond.name, cond.args.map(operand));
  }
}

function negate<R>(negated: boolean | undefined, f: (row: R) => boolean): (row: R) => boolean {
  return negated ? (row) => !f(row) : f;
}

const NUMERIC = /^\s*[+-]?[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?\s*$/;

function isNumericOperand(v: Operand): boolean {
  return typeof v === "number" ? Number.isFinite(v) : NUMERIC.test(v);
}

function compare(op: CompareOp, a: Operand, b: Operand): boolean {
  if (typeof a === "string" && typeof b === "string") return order(op, a < b ? -1 : a > b ? 1 : 0);
  const x = toNumber(a);
  const y = toNumber(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  return order(op, x < y ? -1 : x > y ? 1 : 0);
}

function order(op: CompareOp, c: number): boolean {
  switch (op) {
    case "==":
      return c === 0;
    case "!=":
      return c !== 0;
    case "<":
      return c < 0;
    case ">":
      return c > 0;
    case "<=":
      return c <= 0;
    case ">=":
      return c >= 0;
  }
}

function toNumber(v: Operand): number {
  if (typeof v === "number") return v;
  return NUMERIC.test(v) ? Number(v.trim()) : NaN;
}

function compileOperand<R>(e: WhereExpr, compileToken: (e: ValueExpr) => TokenGetter<R>): (row: R) => Operand {
  const sub = (x: WhereExpr) => compileOperand(x, compileToken);
  switch (e.kind) {
    case "string": {
      const t = e.text;
      return () => t;
    }
    case "number": {
      const n = e.value;
      return () => n;
    }
    case "token": {
      const get = compileToken(e.value);
      return (row) => get(row) ?? "";
    }
    case "negate": {
      const v = sub(e.operand);
      return (row) => -toNumber(v(row));
    }
    case "arith": {
      const [l, r] = [sub(e.left), sub(e.right)];
      const f = ARITHMETIC[e.op];
      return (row) => f(toNumber(l(row)), toNumber(r(row)));
    }
    case "function":
      return compileWhereFunction(e.name, e.args.map(sub));
  }
}

const ARITHMETIC: Record<"+" | "-" | "*" | "/" | "^", (a: number, b: number) => number> = {
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "^": (a, b) => a ** b,
};

function compileWhereFunction<R>(name: string, args: ((row: R) => Operand)[]): (row: R) => Operand {
  const arity = (n: number) => {
    if (args.length !== n) throw new LoadError(`WHERE function ${name} takes ${n} argument(s), got ${args.length}.`);
  };
  switch (name.toLowerCase()) {
    case "to_int": {
      arity(1);
      const [a] = args as [(row: R) => Operand];
      return (row) => Math.trunc(toNumber(a(row)));
    }
    case "to_float": {
      arity(1);
      const [a] = args as [(row: R) => Operand];
      return (row) => toNumber(a(row));
    }
    case "concat":
      return (row) => args.map((a) => String(a(row))).join("");
    case "token_len": {
      arity(1);
      const [a] = args as [(row: R) => Operand];
      return (row) => [...String(a(row))].length;
    }
    default:
      throw new LoadError(`Unknown function ${name} in a WHERE clause (token functions cannot be used there).`);
  }
}

function compilePredicate<R>(name: string, args: ((row: R) => Operand)[]): (row: R) => boolean {
  const text = (i: number) => args[i]!;
  const arity = (n: number) => {
    if (args.length !== n) throw new LoadError(`WHERE function ${name} takes ${n} argument(s), got ${args.length}.`);
  };
  switch (name.toLowerCase()) {
    case "gsql_is_not_empty_string":
      arity(1);
      return (row) => String(text(0)(row)).trim().length > 0;
    case "gsql_token_equal":
      arity(2);
      return (row) => String(text(0)(row)) === String(text(1)(row));
    case "gsql_token_ignore_case_equal":
      arity(2);
      return (row) => String(text(0)(row)).toLowerCase() === String(text(1)(row)).toLowerCase();
    case "gsql_is_true":
      arity(1);
      return (row) => isTrueText(String(text(0)(row)));
    case "gsql_is_false":
      arity(1);
      return (row) => {
        const t = String(text(0)(row)).trim().toLowerCase();
        return t === "f" || t === "false";
      };
    default:
      throw new LoadError(`Unknown predicate ${name} in a WHERE clause.`);
  }
}
