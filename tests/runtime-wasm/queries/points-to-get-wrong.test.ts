// The fifteen points of the query-language notes most likely to be implemented wrong
// (gsql-semantics §13), on the sample graph, through the whole compiler and runtime.
import { expect } from "chai";
import { closeSharedRuntime, createDatabase, runGsql, type TestDatabase } from "./gsql-harness.js";
import { SAMPLE_DATA, SAMPLE_DDL } from "./sample-graph.js";

const q = (body: string, params = "") => `CREATE QUERY q(${params}) FOR GRAPH G SYNTAX V1 { ${body} }`;

describe("query semantics on the sample graph (gsql-semantics §13)", function () {
  this.timeout(30000);
  let db: TestDatabase;
  before(() => {
    db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);
  });
  after(closeSharedRuntime);

  async function results(body: string, params = "", args: unknown[] = []) {
    const r = await runGsql(db, q(body, params), args as never[]);
    if (!r.ok) throw new Error(`${r.kind}: ${r.message}`);
    return r.json;
  }

  it("1. integer division stays integer; float-to-INT assignment truncates", async () => {
    expect(await results("INT i = 7/2; FLOAT f = 7/2; INT j = 7/4.0; PRINT i, f, j;")).to.deep.equal([{ i: 3, f: 3, j: 1 }]);
  });

  it("2. global-variable assignment inside ACCUM is deferred", async () => {
    expect(await results("INT k = 0; S = {P.*}; S = SELECT s FROM S:s -(Knows:e)-> P:t ACCUM k = k + 1; PRINT k;")).to.deep.equal([{ k: 1 }]);
  });

  it("3. ACCUM reads accumulators as they were before the clause", async () => {
    expect(await results("SumAccum<INT> @x; SumAccum<INT> @@seen; S = {P.*}; S = SELECT t FROM S:s -(Knows:e)-> P:t ACCUM t.@x += 1, @@seen += t.@x; PRINT @@seen;")).to.deep.equal([{ "@@seen": 0 }]);
  });

  it("4. POST-ACCUM statements for one vertex run in order and see each other's writes", async () => {
    expect(await results("SumAccum<INT> @a; SumAccum<INT> @@sum; S = {P.*}; S = SELECT s FROM S:s POST-ACCUM s.@a = s.age, s.@a += 1, @@sum += s.@a; PRINT @@sum;")).to.deep.equal([{ "@@sum": 93 }]);
    expect(await results("SumAccum<INT> @a; SumAccum<INT> @@sum; S = {P.*}; S = SELECT s FROM S:s ACCUM s.@a = s.age, s.@a += 1, @@sum += s.@a; PRINT @@sum;")).to.deep.equal([{ "@@sum": 0 }]);
  });

  it("5. an undirected edge matches from both ends", async () => {
    expect(await results("SumAccum<INT> @@n; S = {P.*}; S = SELECT s FROM S:s -(Friend:e)- P:t ACCUM @@n += 1; PRINT @@n, S.size();")).to.deep.equal([{ "@@n": 2, "S.size()": 2 }]);
  });

  it("6. ACCUM runs per row, POST-ACCUM per distinct vertex of its alias", async () => {
    expect(await results("SumAccum<INT> @@acc, @@post; S = {P.*}; T = SELECT t FROM S:s -(Knows:e)-> P:t ACCUM @@acc += 1 POST-ACCUM @@post += 1; PRINT @@acc, @@post;")).to.deep.equal([{ "@@acc": 3, "@@post": 2 }]);
  });

  it("7. @a' is the pre-ACCUM value, usable in POST-ACCUM", async () => {
    expect(await results("SumAccum<INT> @cnt = 10; SumAccum<INT> @@d; S = {P.*}; S = SELECT t FROM S:s -(Knows:e)-> P:t ACCUM t.@cnt += 1 POST-ACCUM @@d += t.@cnt - t.@cnt'; PRINT @@d;")).to.deep.equal([{ "@@d": 3 }]);
  });

  it("8. vertex accumulators persist across SELECTs; an ORDER BY result prints in order", async () => {
    const r = await results(
      "SumAccum<INT> @n; S = {P.*}; A = SELECT t FROM S:s -(Knows:e)-> P:t ACCUM t.@n += 1; A = SELECT t FROM S:s -(Knows:e)-> P:t ACCUM t.@n += 1 ORDER BY t.name; PRINT A[A.@n];",
    );
    expect(r).to.deep.equal([{ A: [{ v_id: "b", v_type: "P", attributes: { "A.@n": 2 } }, { v_id: "c", v_type: "P", attributes: { "A.@n": 4 } }] }]);
  });

  it("9. HAVING applies after POST-ACCUM; dropped vertices keep their side effects", async () => {
    const r = await results(
      "SumAccum<INT> @in; SumAccum<INT> @@total; S = {P.*}; R = SELECT t FROM S:s -(Knows:e)-> P:t ACCUM t.@in += e.w POST-ACCUM @@total += t.@in HAVING t.@in > 3; PRINT R[R.@in], @@total;",
    );
    expect(r).to.deep.equal([{ R: [{ v_id: "c", v_type: "P", attributes: { "R.@in": 5 } }], "@@total": 6 }]);
  });

  it("10. edge direction: V1 matches out-edges of the source", async () => {
    expect(await results('S = {P.*}; S = SELECT s FROM S:s WHERE s.name == "Cid"; T = SELECT t FROM S:s -(:e)- :t; PRINT T.size() AS n;')).to.deep.equal([{ n: 0 }]);
  });

  it("13. a VERTEX prints as its id; a vertex set prints full records with every vertex accumulator", async () => {
    const r = await runGsql(db, "CREATE QUERY pv(VERTEX<P> v) FOR GRAPH G { SumAccum<INT> @k; S = {v}; PRINT v; PRINT S; }", [{ id: "a" }]);
    expect(r.json).to.deep.equal([{ v: "a" }, { S: [{ v_id: "a", v_type: "P", attributes: { name: "Ann", age: 30, "@k": 0 } }] }]);
  });

  it("14. number printing: floats by type, 64-bit integers exact, keys from expression text", async () => {
    const r = await runGsql(db, q("INT x = 1; DOUBLE d = 2.0/3; DOUBLE w = 4.0/2; PRINT x + 1, d, w, GSQL_INT_MAX AS m;"));
    expect(r.ok && r.results).to.equal('[{"x+1":2,"d":0.6666666666666666,"w":2,"m":9223372036854775807}]');
  });

  it("15. RANGE is inclusive (with STEP); WHILE LIMIT caps passes", async () => {
    expect(await results("ListAccum<INT> @@l; INT i = 0; FOREACH k IN RANGE[1, 7].STEP(3) DO @@l += k; END; WHILE TRUE LIMIT 2 DO i = i + 1; END; PRINT @@l, i;")).to.deep.equal([{ "@@l": [1, 4, 7], i: 2 }]);
  });
});
