// Sub-queries (gsql-semantics §9.1): calls as expressions and statements, RETURN values of
// scalar and collection types, fresh accumulators on every call, recursion, calls from
// ACCUM, vertex sets passed for SET<VERTEX> parameters, PRINT of a callee not in the
// results, exceptions propagating to the caller.
import { expect } from "chai";
import { closeSharedRuntime, createDatabase, runGsql } from "./gsql-harness.js";
import { SAMPLE_DATA, SAMPLE_DDL } from "./sample-graph.js";

describe("sub-queries", function () {
  this.timeout(30000);
  after(closeSharedRuntime);
  const db = createDatabase(SAMPLE_DDL, SAMPLE_DATA);

  async function results(text: string, args: unknown[] = []) {
    const r = await runGsql(db, text, args as never[]);
    if (!r.ok) throw new Error(`${r.kind}: ${r.message}`);
    return r.json;
  }

  it("returns scalars; each call starts with fresh accumulators; a callee's PRINT is not in the results", async () => {
    const text = `
      CREATE QUERY addOne(INT x) FOR GRAPH G RETURNS (INT) {
        SumAccum<INT> @@calls;
        @@calls += 1;
        PRINT "inside" AS s;
        RETURN x + @@calls;
      }
      CREATE QUERY main() FOR GRAPH G {
        INT a = addOne(1);
        INT b = addOne(addOne(10));
        PRINT a, b;
      }`;
    expect(await results(text)).to.deep.equal([{ a: 2, b: 12 }]);
  });

  it("recursion: each activation keeps its own variables", async () => {
    const text = `
      CREATE QUERY fact(INT n) FOR GRAPH G RETURNS (INT) {
        INT m = n;
        IF n <= 1 THEN RETURN 1; END;
        INT below = fact(n - 1);
        RETURN m * below;
      }
      CREATE QUERY main() FOR GRAPH G { PRINT fact(10) AS f, fact(1) AS one; }`;
    expect(await results(text)).to.deep.equal([{ f: 3628800, one: 1 }]);
  });

  it("returns a collection; takes a vertex set for a SET<VERTEX> parameter; is called in ACCUM", async () => {
    const text = `
      CREATE QUERY namesOf(SET<VERTEX<P>> vs) FOR GRAPH G RETURNS (SetAccum<STRING>) {
        SetAccum<STRING> @@names;
        S = {vs};
        S = SELECT s FROM S:s ACCUM @@names += s.name;
        RETURN @@names;
      }
      CREATE QUERY degree(VERTEX<P> v) FOR GRAPH G RETURNS (INT) {
        SumAccum<INT> @@n;
        S = {v};
        S = SELECT t FROM S:s -(Knows:e)-> P:t ACCUM @@n += 1;
        RETURN @@n;
      }
      CREATE QUERY main() FOR GRAPH G SYNTAX V1 {
        SumAccum<INT> @deg;
        All = {P.*};
        Young = SELECT s FROM All:s WHERE s.age < 31;
        All = SELECT s FROM All:s ACCUM s.@deg += degree(s);
        PRINT namesOf(Young) AS young, All[All.@deg];
      }`;
    const r = (await results(text)) as { young: string[]; All: { v_id: string; attributes: { "All.@deg": number } }[] }[];
    expect([...r[0].young].sort()).to.deep.equal(["Ann", "Bob"]);
    expect(Object.fromEntries(r[0].All.map((v) => [v.v_id, v.attributes["All.@deg"]]))).to.deep.equal({ a: 2, b: 1, c: 0 });
  });

  it("an exception the callee does not catch reaches the caller's TRY, or ends the run", async () => {
    const callee = `
      CREATE QUERY check(INT x) FOR GRAPH G RETURNS (INT) {
        EXCEPTION negative (40010);
        IF x < 0 THEN RAISE negative ("negative: " + to_string(x)); END;
        RETURN x;
      }`;
    expect(
      await results(`${callee}
      CREATE QUERY main() FOR GRAPH G {
        EXCEPTION negative (40010);
        INT r = 0;
        TRY r = check(-5); PRINT "unreached" AS u; EXCEPTION WHEN negative THEN PRINT "caught" AS c; END;
        PRINT r;
      }`),
    ).to.deep.equal([{ c: "caught" }, { r: 0 }]);
    const r = await runGsql(db, `${callee} CREATE QUERY main() FOR GRAPH G { PRINT check(-2) AS x; }`);
    expect(r).to.deep.include({ ok: false, kind: "exception", code: 40010, message: "negative: -2" });
  });
});
