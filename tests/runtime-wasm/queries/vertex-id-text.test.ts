// to_string(v) of a vertex gives its primary id as text (an extension: the query language
// has no other way to build text from a vertex, which path strings need), for every kind of
// primary id; the unknown vertex gives "".
import { expect } from "chai";
import { closeSharedRuntime, createDatabase, runGsql } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX S (PRIMARY_ID id STRING)
CREATE VERTEX I (PRIMARY_ID id INT)
CREATE VERTEX U (PRIMARY_ID id UINT)
CREATE DIRECTED EDGE E (FROM S, TO I | FROM I, TO U)
CREATE GRAPH G (S, I, U, E)
`;

describe("to_string of a vertex", function () {
  this.timeout(30000);
  after(closeSharedRuntime);

  it("is the primary id as text, for STRING, INT and UINT ids", async () => {
    const db = createDatabase(DDL, {
      vertices: [
        { type: "S", id: "x y" },
        { type: "I", id: -42 },
        { type: "U", id: 18446744073709551615n },
      ],
      edges: [
        { type: "E", from: { type: "S", id: "x y" }, to: { type: "I", id: -42 } },
        { type: "E", from: { type: "I", id: -42 }, to: { type: "U", id: 18446744073709551615n } },
      ],
    });
    const r = await runGsql(
      db,
      `CREATE QUERY q() FOR GRAPH G SYNTAX V1 {
         ListAccum<STRING> @@pairs;
         MinAccum<VERTEX> @@none;
         A = {S.*, I.*};
         A = SELECT s FROM A:s -(E:e)- :t ACCUM @@pairs += to_string(s) + "|" + to_string(t);
         PRINT @@pairs, to_string(@@none) AS nothing;
       }`,
    );
    if (!r.ok) throw new Error(r.message);
    const [out] = r.json as { "@@pairs": string[]; nothing: string }[];
    expect([...out["@@pairs"]].sort()).to.deep.equal(["-42|18446744073709551615", "x y|-42"]);
    expect(out.nothing).to.equal("");
  });

  it("printed vertices carry their INT and UINT ids exactly, on both sides of 2^32 and 2^53 and at the limits", async () => {
    const ints = [0n, 1n, -1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n), -(2n ** 53n) - 1n, 2n ** 63n - 1n, -(2n ** 63n)];
    const uints = [0n, 7n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n];
    const db = createDatabase(DDL, { vertices: [...ints.map((id) => ({ type: "I", id })), ...uints.map((id) => ({ type: "U", id }))] });
    const r = await runGsql(db, `CREATE QUERY q() FOR GRAPH G { A = {I.*}; B = {U.*}; PRINT A, B; }`);
    if (!r.ok) throw new Error(r.message);
    const [out] = r.json as { A: { v_id: string }[]; B: { v_id: string }[] }[];
    expect(out.A.map((v) => v.v_id).sort()).to.deep.equal(ints.map(String).sort());
    expect(out.B.map((v) => v.v_id).sort()).to.deep.equal(uints.map(String).sort());
  });
});
