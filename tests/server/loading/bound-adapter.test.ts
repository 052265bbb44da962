import { expect } from "chai";
import type { BoundLoadingJob } from "../../../compiler/bind/loading/bound-loading.js";
import { planFromBoundJob } from "../../../server/loading/bound-adapter.js";
import { runLoad } from "../../../server/loading/run.js";
import { RecordingSink } from "./fixtures.js";

// As the binder produces it for:
//   CREATE LOADING JOB j FOR GRAPH social {
//     DEFINE FILENAME f;
//     DEFINE INPUT_LINE_FILTER bad = $2 IS EMPTY;
//     LOAD f TO VERTEX Person VALUES ($"id", gsql_upper($"name"), _, _, _, _, SPLIT($"tags", "|")) WHERE to_int($"age") >= 18
//       USING HEADER="true", REJECT_LINE_RULE="bad";
//     LOAD "/data/cities.csv" TO VERTEX City VALUES ($0, $1), TO EDGE Likes VALUES ($2 Person, $0 City);
//   }
const bound: BoundLoadingJob = {
  name: "j",
  graph: "social",
  files: [{ name: "f" }],
  headers: [],
  lineFilters: [{ name: "bad", condition: { kind: "isEmpty", value: { kind: "column", index: 2 }, negated: false } }],
  loads: [
    {
      source: { kind: "file", name: "f" },
      options: { separator: ",", eol: "\n", header: true, rejectLineRule: "bad", jsonFile: false, newVertexOnly: false, vertexMustExist: false },
      destinations: [
        {
          kind: "vertex",
          typeName: "Person",
          id: { kind: "columnName", name: "id" },
          attributes: [
            { kind: "call", fn: "gsql_upper", args: [{ kind: "columnName", name: "name" }] },
            { kind: "default" },
            { kind: "default" },
            { kind: "default" },
            { kind: "default" },
            { kind: "split", value: { kind: "columnName", name: "tags" }, separators: ["|"] },
          ],
          where: { kind: "compare", op: ">=", left: { kind: "call", fn: "to_int", args: [{ kind: "columnName", name: "age" }] }, right: { kind: "literal", value: "18", numeric: true } },
        },
      ],
    },
    {
      source: { kind: "path", path: "/data/cities.csv" },
      options: { separator: ",", eol: "\n", header: false, jsonFile: false, newVertexOnly: false, vertexMustExist: false },
      destinations: [
        { kind: "vertex", typeName: "City", id: { kind: "column", index: 0 }, attributes: [{ kind: "column", index: 1 }] },
        { kind: "edge", typeName: "Likes", from: { kind: "column", index: 2 }, fromType: "Person", to: { kind: "column", index: 0 }, toType: "City", attributes: [] },
      ],
    },
  ],
  deletes: [],
};

describe("bound loading job → plan", () => {
  it("converts sources, values, conditions and options, and the plan loads", async () => {
    const plan = planFromBoundJob(bound);
    expect(plan.files).to.deep.equal([{ name: "f" }, { name: "__GSQL_FILENAME_0__", defaultPath: "/data/cities.csv" }]);
    expect(plan.statements[1]!.source).to.deep.equal({ kind: "file", variable: "__GSQL_FILENAME_0__" });
    const sink = new RecordingSink();
    const r = await runLoad(plan, new Map([["f", { kind: "body", data: "id,name,age,tags\na,ann,30,x|y\nb,bob,,z\nc,cy,12,w\n" }]]), sink);
    const s = r.sources[0]!.statistics;
    expect([s.validLine, s.rejectLine, s.failedConditionLine]).to.deep.equal([2, 1, 1]);
    expect(sink.vertices).to.deep.equal([{ type: "Person", id: "a", newVertexOnly: false, attributes: [{ name: "name", value: "ANN", op: "=" }, { name: "tags", value: ["x", "y"], op: "+" }] }]);
    const cities = new RecordingSink();
    await runLoad(plan, new Map([["__GSQL_FILENAME_0__", { kind: "body", data: "7,Oslo,p1\n" }]]), cities);
    expect(cities.vertices.map((v) => [v.type, v.id])).to.deep.equal([["City", 7]]);
    expect(cities.edges.map((e) => [e.type, e.from.id, e.to.type, e.to.id])).to.deep.equal([["Likes", "p1", "City", 7]]);
  });
});
