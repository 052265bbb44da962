import { expect } from "chai";
import {
  T, accumAcceptsAccumulate, accumAcceptsAssign, accumOutputType, attrTypeToGType, checkAccumElement,
  isAssignable, typeToString, widen, type AccumType, type GType, type TupleGType,
} from "../../../compiler/bind/types.js";
import { lookupFunction, lookupMethod } from "../../../compiler/bind/builtins.js";

const sum = (element: GType): AccumType => ({ kind: "accum", accum: "SumAccum", element });
const list = (element: GType): AccumType => ({ kind: "accum", accum: "ListAccum", element });
const set = (element: GType): AccumType => ({ kind: "accum", accum: "SetAccum", element });
const map = (key: GType, value: GType): AccumType => ({ kind: "accum", accum: "MapAccum", key, value });
const entry = (keys: GType[], values: GType[]): GType => ({ kind: "entry", keys, values });
const KV: TupleGType = { kind: "tuple", name: "KV", fields: [{ name: "k", type: T.STRING }, { name: "v", type: T.INT }] };

describe("bind/types: the GSQL type system", () => {
  it("widens INT → UINT → FLOAT → DOUBLE", () => {
    expect(widen(T.INT, T.UINT)).to.deep.equal(T.UINT);
    expect(widen(T.UINT, T.FLOAT)).to.deep.equal(T.FLOAT);
    expect(widen(T.DOUBLE, T.INT)).to.deep.equal(T.DOUBLE);
    expect(widen(T.INT, T.INT)).to.deep.equal(T.INT);
    expect(widen(T.INT, T.STRING)).to.deep.equal(T.ERROR);
  });

  it("spells types as GSQL does", () => {
    expect(typeToString(map(T.STRING, list(T.INT)))).to.equal("MapAccum<STRING, ListAccum<INT>>");
    expect(typeToString({ kind: "vertex", vertexType: "P" })).to.equal("VERTEX<P>");
    expect(typeToString({ kind: "accum", accum: "HeapAccum", tuple: KV, keys: [{ field: "v", desc: true }] }))
      .to.equal("HeapAccum<KV>(v DESC)");
    expect(typeToString({ kind: "tuple", fields: [{ name: "f0", type: T.INT }, { name: "f1", type: T.STRING }] }))
      .to.equal("TUPLE<INT, STRING>");
  });

  it("assignment converts numbers both ways but never numbers and strings", () => {
    expect(isAssignable(T.INT, T.DOUBLE)).to.equal(true);
    expect(isAssignable(T.FLOAT, T.INT)).to.equal(true);
    expect(isAssignable(T.STRING, T.INT)).to.equal(false);
    expect(isAssignable(T.INT, T.STRING)).to.equal(false);
    expect(isAssignable(T.BOOL, T.INT)).to.equal(false);
    expect(isAssignable({ kind: "vertex", vertexType: "P" }, { kind: "vertex", vertexType: "Q" })).to.equal(false);
    expect(isAssignable(T.VERTEX, { kind: "vertex", vertexType: "Q" })).to.equal(true);
  });

  it("+= accepts per accumulator type", () => {
    expect(accumAcceptsAccumulate(sum(T.INT), T.DOUBLE)).to.equal(true);
    expect(accumAcceptsAccumulate(sum(T.INT), T.STRING)).to.equal(false);
    expect(accumAcceptsAccumulate(sum(T.STRING), T.STRING)).to.equal(true);
    expect(accumAcceptsAccumulate(sum(T.STRING), T.INT)).to.equal(false);
    expect(accumAcceptsAccumulate({ kind: "accum", accum: "OrAccum" }, T.BOOL)).to.equal(true);
    expect(accumAcceptsAccumulate({ kind: "accum", accum: "OrAccum" }, T.INT)).to.equal(false);
    expect(accumAcceptsAccumulate(list(T.INT), T.INT)).to.equal(true);
    expect(accumAcceptsAccumulate(list(T.INT), { kind: "collection", collection: "LIST", element: T.INT })).to.equal(true);
    expect(accumAcceptsAccumulate(set(T.INT), { kind: "collection", collection: "SET", element: T.INT })).to.equal(true);
    expect(accumAcceptsAccumulate(set(T.VERTEX), { kind: "vertexSet", vertexTypes: ["P"] })).to.equal(true);
    expect(accumAcceptsAccumulate(set(T.INT), T.STRING)).to.equal(false);
    expect(accumAcceptsAccumulate(map(T.STRING, sum(T.INT)), entry([T.STRING], [T.INT]))).to.equal(true);
    expect(accumAcceptsAccumulate(map(T.STRING, list(T.INT)), entry([T.STRING], [T.INT]))).to.equal(true);
    expect(accumAcceptsAccumulate(map(T.STRING, T.INT), entry([T.INT], [T.INT]))).to.equal(false);
    expect(accumAcceptsAccumulate(map(T.STRING, T.INT), T.INT)).to.equal(false);
    const heap: AccumType = { kind: "accum", accum: "HeapAccum", tuple: KV, keys: [{ field: "v", desc: true }] };
    expect(accumAcceptsAccumulate(heap, KV)).to.equal(true);
    expect(accumAcceptsAccumulate(heap, T.INT)).to.equal(false);
    const gb: AccumType = { kind: "accum", accum: "GroupByAccum", keys: [{ name: "g", type: T.STRING }],
      values: [{ name: "total", type: sum(T.INT) }, { name: "hi", type: { kind: "accum", accum: "MaxAccum", element: T.INT } }] };
    expect(accumAcceptsAccumulate(gb, entry([T.STRING], [T.INT, T.INT]))).to.equal(true);
    expect(accumAcceptsAccumulate(gb, entry([T.STRING], [T.INT]))).to.equal(false);
  });

  it("= accepts the output type, and collections of the right element type", () => {
    expect(accumAcceptsAssign({ kind: "accum", accum: "AvgAccum" }, T.INT)).to.equal(true);
    expect(accumAcceptsAssign(sum(T.INT), T.STRING)).to.equal(false);
    expect(accumAcceptsAssign(list(T.INT), { kind: "collection", collection: "LIST", element: T.INT })).to.equal(true);
    expect(accumAcceptsAssign(list(T.INT), T.INT)).to.equal(true);
    expect(accumAcceptsAssign(list(T.INT), T.STRING)).to.equal(false);
  });

  it("reading an accumulator gives its output type", () => {
    expect(accumOutputType(sum(T.UINT))).to.deep.equal(T.UINT);
    expect(accumOutputType({ kind: "accum", accum: "AvgAccum" })).to.deep.equal(T.DOUBLE);
    expect(accumOutputType({ kind: "accum", accum: "BitwiseOrAccum", width: 64 })).to.deep.equal(T.INT);
    expect(accumOutputType(list(T.INT))).to.deep.equal(list(T.INT));
  });

  it("checks accumulator element types", () => {
    expect(checkAccumElement(sum(T.BOOL))).to.match(/SumAccum takes/);
    expect(checkAccumElement(sum(T.STRING))).to.equal(undefined);
    expect(checkAccumElement(map(T.STRING, { kind: "accum", accum: "HeapAccum", tuple: KV, keys: [] }))).to.match(/HeapAccum/);
    expect(checkAccumElement({ kind: "accum", accum: "HeapAccum", tuple: KV, keys: [{ field: "zz", desc: false }] })).to.match(/no field zz/);
  });

  it("maps schema attribute types into the language", () => {
    const tuples = [{ name: "Pt", fields: [{ name: "x", type: { kind: "scalar" as const, name: "INT" as const } }] }];
    expect(attrTypeToGType({ kind: "set", element: { kind: "scalar", name: "STRING" } }, tuples)).to.deep.equal(set(T.STRING));
    expect(attrTypeToGType({ kind: "map", key: { kind: "scalar", name: "INT" }, value: { kind: "tuple", name: "Pt" } }, tuples))
      .to.deep.equal(map(T.INT, { kind: "tuple", name: "Pt", fields: [{ name: "x", type: T.INT }] }));
    expect(attrTypeToGType({ kind: "scalar", name: "FIXED_BINARY", size: 4 }, tuples)).to.deep.equal(T.STRING);
  });

  it("looks built-ins up case-insensitively with their result types", () => {
    expect(lookupFunction("COALESCE")?.id).to.equal("fn.coalesce");
    expect(lookupFunction("ceil")?.result([T.DOUBLE])).to.deep.equal(T.INT);
    expect(lookupFunction("abs")?.result([T.FLOAT])).to.deep.equal(T.FLOAT);
    expect(lookupFunction("nope")).to.equal(undefined);
    expect(lookupMethod(map(T.STRING, sum(T.INT)), "get")?.result(map(T.STRING, sum(T.INT)), [T.STRING])).to.deep.equal(T.INT);
    expect(lookupMethod(list(T.INT), "clear")?.mutator).to.equal(true);
    expect(lookupMethod(T.INT, "size")).to.equal(undefined);
  });
});
