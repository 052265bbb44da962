import { expect } from "chai";
import type { AttrType } from "../../../runtime-wasm/schema/types.js";
import { BlobWriter, readBlobValue } from "../../../runtime-wasm/store/values/blob.js";
import { builtinDefault, coerceValue, tupleTable } from "../../../runtime-wasm/store/values/coerce.js";
import { formatDatetime, parseDatetime } from "../../../runtime-wasm/store/values/datetime.js";
import { idText, normalizeId } from "../../../runtime-wasm/store/values/ids.js";
import { IdKind } from "../../../runtime-wasm/store/layout.js";
import { applyOperator, operatorApplies } from "../../../runtime-wasm/store/values/operators.js";
import { BOOL, DATETIME, DOUBLE, FLOAT, INT, STRING, UINT, attr, vertex } from "./fixtures.js";

const tuples = tupleTable([{ name: "P", fields: [{ name: "a", type: INT }, { name: "s", type: STRING }] }]);
const coerce = (t: AttrType, v: unknown) => coerceValue(t, v, tuples);

describe("store: value coercion, ids, datetimes, operators, blobs", () => {
  it("coerces scalars and refuses what does not fit", () => {
    expect([coerce(INT, 5), coerce(INT, "-12"), coerce(INT, 7n), coerce(INT, " 3 ")]).to.deep.equal([5n, -12n, 7n, 3n]);
    expect([coerce(INT, 1.5), coerce(INT, "1e3"), coerce(INT, "abc"), coerce(INT, 2n ** 63n), coerce(INT, null), coerce(INT, true)]).to.deep.equal([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect([coerce(UINT, "18446744073709551615"), coerce(UINT, -1), coerce(UINT, 2n ** 64n)]).to.deep.equal([2n ** 64n - 1n, undefined, undefined]);
    expect([coerce(FLOAT, 0.1), coerce(DOUBLE, 0.1), coerce(DOUBLE, "-.5"), coerce(DOUBLE, "7E2"), coerce(DOUBLE, "x"), coerce(DOUBLE, Infinity)]).to.deep.equal([Math.fround(0.1), 0.1, -0.5, 700, undefined, undefined]);
    expect([coerce(BOOL, true), coerce(BOOL, "FALSE"), coerce(BOOL, 1), coerce(BOOL, "yes"), coerce(BOOL, 2)]).to.deep.equal([true, false, true, undefined, undefined]);
    expect([coerce(STRING, "é"), coerce(STRING, 12), coerce(STRING, {}), coerce(STRING, null)]).to.deep.equal(["é", "12", undefined, undefined]);
  });

  it("parses and prints DATETIME within the interface's range", () => {
    expect(parseDatetime("2020-01-02 03:04:05")).to.equal(1577934245);
    expect(parseDatetime("2020-1-2")).to.equal(1577923200);
    expect(parseDatetime("2020-01-02T03:04")).to.equal(1577934240);
    expect(parseDatetime("1582-10-15 00:00:00")).to.equal(-12219292800);
    expect([parseDatetime("1582-10-14"), parseDatetime("2021-02-29"), parseDatetime("2020-13-01"), parseDatetime("10000-01-01"), parseDatetime("noon")]).to.deep.equal([undefined, undefined, undefined, undefined, undefined]);
    expect(parseDatetime("86400")).to.equal(86400);
    expect(formatDatetime(1577934245)).to.equal("2020-01-02 03:04:05");
    expect(formatDatetime(-12219292800)).to.equal("1582-10-15 00:00:00");
    expect([coerce(DATETIME, "2020-01-02"), coerce(DATETIME, 5), coerce(DATETIME, 1.5), coerce(DATETIME, 1e13)]).to.deep.equal([1577923200, 5, undefined, undefined]);
  });

  it("coerces collections and tuples (MAP as pairs, keylist/valuelist or object; SET without duplicates)", () => {
    const setOfInt: AttrType = { kind: "set", element: INT };
    const map: AttrType = { kind: "map", key: STRING, value: DOUBLE };
    const tuple: AttrType = { kind: "tuple", name: "P" };
    expect(coerce({ kind: "list", element: INT }, [1, "2", 1])).to.deep.equal([1n, 2n, 1n]);
    expect(coerce(setOfInt, [1, "1", 2])).to.deep.equal([1n, 2n]);
    expect(coerce(setOfInt, [1, "x"])).to.equal(undefined);
    expect(coerce(map, { keylist: ["a", "b", "a"], valuelist: [1, 2, 3] })).to.deep.equal([["b", 2], ["a", 3]]);
    expect(coerce(map, [["a", "1.5"]])).to.deep.equal([["a", 1.5]]);
    expect(coerce(map, { a: 1 })).to.deep.equal([["a", 1]]);
    expect(coerce(map, { keylist: ["a"], valuelist: [] })).to.equal(undefined);
    expect(coerce(tuple, { a: 3 })).to.deep.equal({ a: 3n, s: "" });
    expect(coerce(tuple, [4, "x"])).to.deep.equal({ a: 4n, s: "x" });
    expect(coerce(tuple, [4])).to.equal(undefined);
    expect(builtinDefault(tuple, tuples)).to.deep.equal({ a: 0n, s: "" });
    expect(builtinDefault(DATETIME, tuples)).to.equal(0);
  });

  it("round-trips nested collections and tuples through the blob encoding", () => {
    const type: AttrType = { kind: "map", key: STRING, value: { kind: "list", element: { kind: "tuple", name: "P" } } };
    const value = [["k", [{ a: -5n, s: "ü" }, { a: 2n ** 62n, s: "" }]], ["", []]] as [string, { a: bigint; s: string }[]][];
    const w = new BlobWriter();
    w.write(type, value, tuples);
    expect(readBlobValue(type, w.bytes.subarray(0, w.length), 0, tuples)).to.deep.equal([value, w.length]);
    const scalars: AttrType = { kind: "list", element: DATETIME };
    w.reset();
    w.write(scalars, [0, -86400, 253402300799], tuples);
    expect(readBlobValue(scalars, w.bytes, 0, tuples)[0]).to.deep.equal([0, -86400, 253402300799]);
  });

  it("normalizes ids per kind and prints them", () => {
    const v = vertex("V", "INT", []);
    const c = vertex("C", "STRING", [attr("a", STRING), attr("b", INT)], { compositeKey: ["a", "b"] });
    expect([normalizeId(v, IdKind.INT, "42", tuples), normalizeId(v, IdKind.INT, 42n, tuples), normalizeId(v, IdKind.INT, "123456789012345678", tuples)]).to.deep.equal([42, 42, 123456789012345678n]);
    expect([normalizeId(v, IdKind.INT, "4.2", tuples), normalizeId(v, IdKind.UINT, "-1", tuples), normalizeId(v, IdKind.STRING, "", tuples)]).to.deep.equal([undefined, undefined, undefined]);
    expect(normalizeId(v, IdKind.DATETIME, "2020-01-02", tuples)).to.equal(1577923200);
    expect(normalizeId(c, IdKind.COMPOSITE, ["x", "7"], tuples)).to.equal(normalizeId(c, IdKind.COMPOSITE, ["x", 7], tuples));
    expect(normalizeId(c, IdKind.COMPOSITE, ["x"], tuples)).to.equal(undefined);
    expect([idText(IdKind.DATETIME, 0), idText(IdKind.UINT, 5n), idText(IdKind.COMPOSITE, ["x", 7n])]).to.deep.equal(["1970-01-01 00:00:00", "5", "x,7"]);
  });

  it("knows which operator applies to which type and what it yields", () => {
    expect(["=", "~", "+", "&", "|", ">", "<"].map((op) => operatorApplies(op as "+", STRING))).to.deep.equal([true, true, true, false, false, true, true]);
    expect(operatorApplies("&", DOUBLE)).to.equal(false);
    expect(operatorApplies("+", { kind: "tuple", name: "P" })).to.equal(false);
    expect(operatorApplies(">", { kind: "list", element: INT })).to.equal(false);
    expect(applyOperator("+", INT, 2n ** 63n - 1n, 1n)).to.equal(-(2n ** 63n));
    expect(applyOperator("+", UINT, 2n ** 64n - 1n, 2n)).to.equal(1n);
    expect(applyOperator("+", FLOAT, 0.1, 0.2)).to.equal(Math.fround(0.1 + 0.2));
    expect(applyOperator(">", BOOL, false, true)).to.equal(true);
    expect(applyOperator("<", DATETIME, 10, 3)).to.equal(3);
  });
});
