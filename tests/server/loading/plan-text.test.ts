import { expect } from "chai";
import { formatLoadingJob } from "../../../server/loading/plan-text.js";
import type { LoadingJobPlan } from "../../../server/loading/plan.js";
import { call, col, lit, named, skip } from "./fixtures.js";

describe("loading job as normalised text (ls)", () => {
  it("prints definitions, destinations, WHERE and USING with defaults filled in", () => {
    const tok = (v: ReturnType<typeof col>) => ({ kind: "token" as const, value: v });
    const plan: LoadingJobPlan = {
      name: "load_social",
      graph: "social",
      files: [{ name: "f1" }, { name: "f2", defaultPath: "/data/e.csv" }, { name: "__GSQL_FILENAME_0__", defaultPath: "/data/c.csv" }],
      headers: [{ name: "h", columns: ["id", "name", "age"] }],
      lineFilters: [{ name: "bad", condition: { kind: "or", left: { kind: "is_empty", operand: tok(col(2)) }, right: { kind: "is_numeric", operand: tok(col(2)), negated: true } } }],
      statements: [
        {
          kind: "load",
          source: { kind: "file", variable: "f1" },
          destinations: [
            {
              kind: "vertex",
              type: "Person",
              values: [named("id"), call("gsql_trim", named("name")), skip],
              where: { kind: "compare", op: ">=", left: { kind: "function", name: "to_int", args: [tok(named("age"))] }, right: { kind: "number", value: 18 } },
            },
          ],
          using: { header: true },
        },
        {
          kind: "load",
          source: { kind: "file", variable: "f2" },
          destinations: [
            { kind: "edge", type: "Knows", from: { id: col(0) }, to: { id: col(1), type: "Person" }, values: [{ kind: "reduce", reducer: "add", value: col(2) }] },
            { kind: "vertex", type: "Person", values: [col(0), lit("x y"), lit("7")] },
          ],
          using: { userDefinedHeader: "h", rejectLineRule: "bad", separator: "\t", vertexMustExist: true },
        },
        { kind: "load", source: { kind: "file", variable: "__GSQL_FILENAME_0__" }, destinations: [{ kind: "vertex", type: "City", values: [col(0), { kind: "split", value: col(1), separator: "|" }] }], using: { eol: "\r\n" } },
      ],
    };
    expect(formatLoadingJob(plan)).to.deep.equal([
      "  - CREATE LOADING JOB load_social FOR GRAPH social {",
      "      DEFINE FILENAME f1;",
      '      DEFINE FILENAME f2 = "/data/e.csv";',
      '      DEFINE HEADER h = "id", "name", "age";',
      "      DEFINE INPUT_LINE_FILTER bad = $2 IS EMPTY OR $2 IS NOT NUMERIC;",
      '      LOAD f1 TO VERTEX Person VALUES($"id", gsql_trim($"name"), _) WHERE to_int($"age") >= 18 USING SEPARATOR=",", HEADER="true", EOL="\\n";',
      '      LOAD f2 TO EDGE Knows VALUES($0, $1 Person, REDUCE(add($2))), TO VERTEX Person VALUES($0, "x y", 7) USING SEPARATOR="\\t", HEADER="false", EOL="\\n", USER_DEFINED_HEADER="h", REJECT_LINE_RULE="bad", VERTEX_MUST_EXIST="true";',
      '      LOAD "/data/c.csv" TO VERTEX City VALUES($0, SPLIT($1, "|")) USING SEPARATOR=",", HEADER="false", EOL="\\r\\n";',
      "    }",
    ]);
  });
});
