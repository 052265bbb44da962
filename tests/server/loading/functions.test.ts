import { expect } from "chai";
import { TOKEN_FUNCTIONS } from "../../../server/loading/functions/token-functions.js";
import { compileCondition } from "../../../server/loading/functions/where.js";
import { INVALID, WRONG_LENGTH, scalarConverter, tupleConverter } from "../../../server/loading/functions/convert.js";
import type { PlanCondition, WhereExpr } from "../../../server/loading/plan.js";

const f = (name: string, ...args: string[]) => TOKEN_FUNCTIONS.get(name)!.apply(args);

describe("loader token functions (§7.5)", () => {
  it("string functions", () => {
    expect(f("gsql_concat", "a", "b", "c")).to.equal("abc");
    expect(f("gsql_substring", "Taylor", "1", "3")).to.equal("ayl");
    expect(f("gsql_substring", "Taylor", "2")).to.equal("ylor");
    expect(f("gsql_find", "Taylor", "lo")).to.equal("3");
    expect(f("gsql_find", "Taylor", "x")).to.equal("-1");
    expect(f("gsql_length", "héllo")).to.equal("5");
    expect(f("gsql_replace", "a-b-c-d", "-", "+")).to.equal("a+b+c+d");
    expect(f("gsql_replace", "a-b-c-d", "-", "+", "2")).to.equal("a+b+c-d");
    expect(f("gsql_regex_replace", "a1b22c", "[0-9]+", "#")).to.equal("a#b#c");
    expect(f("gsql_regex_match", "abc123", "[a-z]+[0-9]+")).to.equal("true");
    expect(f("gsql_regex_match", "abc123x", "[a-z]+[0-9]+")).to.equal("false");
    expect(f("gsql_regex_match", "abc", "([")).to.equal("false");
    expect(f("gsql_reverse", "abc")).to.equal("cba");
    expect([f("gsql_upper", "aB"), f("gsql_lower", "aB")]).to.deep.equal(["AB", "ab"]);
    expect([f("gsql_trim", "  x "), f("gsql_ltrim", "  x "), f("gsql_rtrim", "  x ")]).to.deep.equal(["x", "x ", "  x"]);
    expect(f("gsql_split_by_space", "a b c")).to.equal("a\u001eb\u001ec");
  });
  it("conversions", () => {
    expect(["t", "TRUE", "True", "f", "1", "yes"].map((s) => f("gsql_to_bool", s))).to.deep.equal(["true", "true", "true", "false", "false", "false"]);
    expect(f("gsql_to_int", "-12")).to.equal("-12");
    expect(f("gsql_to_int", "3.99")).to.equal("3");
    expect(f("gsql_to_int", "-3.99")).to.equal("-3");
    expect(f("gsql_to_uint", "-3")).to.equal("-3"); // unchanged: a UINT attribute then rejects it
    expect(f("gsql_to_uint", "7.5")).to.equal("7");
    expect(f("gsql_to_int", "x")).to.equal("x");
  });
  it("timestamps accept only their three forms", () => {
    expect(f("gsql_ts_to_epoch_seconds", "2011-02-03 01:02:03")).to.equal(String(Date.UTC(2011, 1, 3, 1, 2, 3) / 1000));
    expect(f("gsql_ts_to_epoch_seconds", "2011/02/03 01:02:03")).to.equal(String(Date.UTC(2011, 1, 3, 1, 2, 3) / 1000));
    expect(f("gsql_ts_to_epoch_seconds", "2011-02-03T01:02:03.000z")).to.equal(String(Date.UTC(2011, 1, 3, 1, 2, 3) / 1000));
    expect(f("gsql_ts_to_epoch_seconds", "2011-02-03")).to.equal("2011-02-03");
    expect([f("gsql_year", "2011-02-03 01:02:03"), f("gsql_month", "2011-02-03 01:02:03"), f("gsql_day", "2011-02-03 01:02:03")]).to.deep.equal(["2011", "2", "3"]);
    expect([f("gsql_year_epoch", "86400"), f("gsql_month_epoch", "86400"), f("gsql_day_epoch", "86400")]).to.deep.equal(["1970", "1", "2"]);
    expect(Math.abs(Number(f("gsql_current_time_epoch", "0")) - Date.now() / 1000)).to.be.lessThan(5);
    expect(f("gsql_uuid_v4")).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(f("to_datetime", "2011-2-3")).to.equal("2011-02-03 00:00:00");
    expect(f("datetime_diff", "1970-01-02", "1970-01-01")).to.equal("86400");
  });
});

describe("loader attribute conversion (§7.8)", () => {
  it("INT/UINT/FLOAT/DOUBLE/BOOL/DATETIME accept and reject per the rules", () => {
    const int = scalarConverter("INT");
    expect([int("12"), int("-12"), int("+3"), int(" 4 "), int("1.5"), int("x"), int("")]).to.deep.equal([12n, -12n, 3n, 4n, INVALID, INVALID, INVALID]);
    expect(int("9223372036854775808")).to.equal(-9223372036854775808n); // overflow wraps, not rejected
    const uint = scalarConverter("UINT");
    expect([uint("5"), uint("-5"), uint("5a")]).to.deep.equal([5n, INVALID, INVALID]);
    const dbl = scalarConverter("DOUBLE");
    expect([dbl("-.5"), dbl("+16."), dbl("7E23"), dbl("1,5"), dbl("1 5"), dbl("nan")]).to.deep.equal([-0.5, 16, 7e23, INVALID, INVALID, INVALID]);
    expect(scalarConverter("FLOAT")("0.1")).to.equal(Math.fround(0.1));
    // Out of the type's range: the number would be infinite, which no attribute holds.
    expect([dbl("1e400"), dbl("-1e309"), dbl("1.7976931348623157e308")]).to.deep.equal([INVALID, INVALID, 1.7976931348623157e308]);
    expect([scalarConverter("FLOAT")("1e39"), scalarConverter("FLOAT")("3e38")]).to.deep.equal([INVALID, Math.fround(3e38)]);
    const bool = scalarConverter("BOOL");
    expect(["true", "True", "TRUE", "1", "false", "False", "FALSE", "0", "tRuE", "yes"].map(bool)).to.deep.equal([true, true, true, true, false, false, false, false, INVALID, INVALID]);
    expect(scalarConverter("FIXED_BINARY", 4)("abcd")).to.equal("abcd");
    expect(scalarConverter("FIXED_BINARY", 4)("abc")).to.equal(WRONG_LENGTH);
  });
  it("tuples wrap sized integers and cut sized strings; a bad field rejects the tuple", () => {
    const t = tupleConverter({ name: "T", fields: [{ name: "a", type: { kind: "scalar", name: "INT" }, size: 1 }, { name: "s", type: { kind: "scalar", name: "STRING" }, size: 3 }] });
    expect(t(["130", "abcdef"])).to.deep.equal({ a: -126n, s: "abc" });
    expect(t(["x", "abc"])).to.equal(INVALID);
  });
});

describe("loader WHERE conditions (§7.4)", () => {
  const tok = (i: number): WhereExpr => ({ kind: "token", value: { kind: "column", index: i } });
  const run = (c: PlanCondition, tokens: string[]) => compileCondition<string[]>(c, (e) => (row) => (e.kind === "column" ? row[e.index] : undefined))(tokens);
  it("compares strings as strings and numbers as numbers", () => {
    expect(run({ kind: "compare", op: "<", left: tok(0), right: tok(1) }, ["10", "9"])).to.equal(true); // string order
    const toInt = (i: number): WhereExpr => ({ kind: "function", name: "to_int", args: [tok(i)] });
    expect(run({ kind: "compare", op: "<", left: toInt(0), right: toInt(1) }, ["10", "9"])).to.equal(false);
    expect(run({ kind: "compare", op: ">", left: toInt(0), right: { kind: "number", value: 5 } }, ["x"])).to.equal(false);
    const sum: WhereExpr = { kind: "arith", op: "+", left: { kind: "function", name: "to_float", args: [tok(0)] }, right: { kind: "number", value: 1 } };
    expect(run({ kind: "compare", op: "==", left: sum, right: { kind: "number", value: 3.5 } }, ["2.5"])).to.equal(true);
  });
  it("IS NUMERIC, IS EMPTY, IN, BETWEEN and the gsql_* predicates", () => {
    const numeric = (s: string) => run({ kind: "is_numeric", operand: tok(0) }, [s]);
    expect(["1", " -2.5e3 ", "+.5", "1.", "abc", "", "1e"].map(numeric)).to.deep.equal([true, true, false, true, false, false, false]);
    expect(run({ kind: "is_empty", operand: tok(0) }, [""])).to.equal(true);
    expect(run({ kind: "is_empty", operand: tok(0), negated: true }, [""])).to.equal(false);
    expect(run({ kind: "in", operand: tok(0), values: [{ kind: "string", text: "a" }, { kind: "string", text: "b" }] }, ["b"])).to.equal(true);
    const between = (s: string) => run({ kind: "between", operand: { kind: "function", name: "to_int", args: [tok(0)] }, low: { kind: "number", value: 2 }, high: { kind: "number", value: 4 } }, [s]);
    expect(["1", "2", "4", "5"].map(between)).to.deep.equal([false, true, true, false]);
    expect(run({ kind: "predicate", name: "gsql_is_not_empty_string", args: [tok(0)] }, ["  "])).to.equal(false);
    expect(run({ kind: "predicate", name: "gsql_token_ignore_case_equal", args: [tok(0), tok(1)] }, ["AbC", "abc"])).to.equal(true);
    expect(run({ kind: "predicate", name: "gsql_token_equal", args: [tok(0), tok(1)] }, ["AbC", "abc"])).to.equal(false);
    expect(["T", "true", "yes"].map((s) => run({ kind: "predicate", name: "gsql_is_true", args: [tok(0)] }, [s]))).to.deep.equal([true, true, false]);
    expect(["F", "false", "0"].map((s) => run({ kind: "predicate", name: "gsql_is_false", args: [tok(0)] }, [s]))).to.deep.equal([true, true, false]);
  });
  it("token functions are not WHERE functions", () => {
    expect(() => run({ kind: "compare", op: "==", left: { kind: "function", name: "gsql_upper" as "to_int", args: [tok(0)] }, right: tok(0) }, ["a"])).to.throw(/Unknown function gsql_upper/);
  });
});
