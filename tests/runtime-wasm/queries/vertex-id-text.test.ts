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
});
