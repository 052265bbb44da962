// DDL application on the command model directly (no parser): exact resulting schemas and
// the diagnostics of invalid commands.
import { expect } from "chai";
import { emptySchema } from "../../../runtime-wasm/schema/types.js";
import { DiagnosticLog, type SourceRange } from "../../../compiler/diagnostics/index.js";
import { applyDdl } from "../../../compiler/bind/ddl/apply.js";
import { applySchemaChangeJob } from "../../../compiler/bind/ddl/schema-change.js";
import type { DdlAttribute, DdlCommand, DdlTypeSpec } from "../../../compiler/bind/ddl/commands.js";

const R: SourceRange = { file: "t.gsql", start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } };
const n = (name: string) => ({ name, range: R });
const scalar = (name: string): DdlTypeSpec => ({ kind: "scalar", name, range: R });
const attr = (name: string, type: string, def?: [DdlAttribute["default"] extends infer L ? "string" | "number" | "bool" : never, string]): DdlAttribute =>
  ({ name, type: scalar(type), range: R, ...(def ? { default: { kind: def[0], text: def[1], range: R } } : {}) });

function run(cmds: DdlCommand[]) {
  const log = new DiagnosticLog();
  let schema = emptySchema();
  for (const c of cmds) schema = applyDdl(schema, c, log).schema;
  return { schema, codes: log.diagnostics.map((d) => d.code) };
}

const person: DdlCommand = {
  kind: "createVertex", name: n("P"), primaryId: { name: "pid", type: scalar("STRING"), range: R },
  attributes: [attr("name", "STRING"), attr("age", "INT", ["number", "7"]), attr("ok", "BOOL", ["string", "TRUE"])],
  options: [], range: R,
};

describe("bind/ddl: applying commands to a schema", () => {
  it("creates a vertex with converted defaults", () => {
    const { schema, codes } = run([person]);
    expect(codes).to.deep.equal([]);
    expect(schema.vertexTypes).to.deep.equal([{
      key: "P", name: "P", primaryId: { name: "pid", type: "STRING" }, primaryIdAsAttribute: false, stats: "OUTDEGREE_BY_EDGETYPE",
      attributes: [
        { name: "name", type: { kind: "scalar", name: "STRING" } },
        { name: "age", type: { kind: "scalar", name: "INT" }, default: 7n },
        { name: "ok", type: { kind: "scalar", name: "BOOL" }, default: true },
      ],
    }]);
  });

  it("creates an edge with a reverse edge and `*` expanded to existing types", () => {
    const { schema, codes } = run([person, {
      kind: "createEdge", directed: true, name: n("Knows"), pairs: [{ from: [n("*")], to: [n("P")], range: R }],
      discriminator: [], attributes: [attr("w", "INT")], options: [{ name: "REVERSE_EDGE", value: "Knows_rev", range: R }], range: R,
    }]);
    expect(codes).to.deep.equal([]);
    expect(schema.edgeTypes.map((e) => [e.name, e.pairs, e.reverseEdge, e.reverseOf])).to.deep.equal([
      ["Knows", [{ from: "P", to: "P" }], "Knows_rev", undefined],
      ["Knows_rev", [{ from: "P", to: "P" }], undefined, "Knows"],
    ]);
  });

  it("rejects a bad DEFAULT and a reused name, leaving the schema unchanged", () => {
    const bad: DdlCommand = { ...person, name: n("Q"), attributes: [attr("age", "INT", ["string", "abc"])] } as DdlCommand;
    const { schema, codes } = run([person, person, bad]);
    expect(codes).to.deep.equal(["GSQL4001", "GSQL4004"]);
    expect(schema.vertexTypes.map((v) => v.name)).to.deep.equal(["P"]);
  });

  it("a schema-change job is atomic and bumps the version once", () => {
    const base = run([person, { kind: "createGraph", name: n("G"), types: [n("P")], range: R }]).schema;
    const log = new DiagnosticLog();
    const failed = applySchemaChangeJob(base, {
      kind: "schemaChangeJob", name: n("j"), global: true, range: R, statements: [
        { kind: "addAttributes", what: "vertex", typeName: n("P"), attributes: [attr("city", "STRING")], range: R },
        { kind: "dropAttributes", what: "vertex", typeName: n("P"), names: [n("nope")], range: R },
      ],
    }, log);
    expect(failed.ok).to.equal(false);
    expect(failed.schema).to.equal(base);
    expect(log.diagnostics.map((d) => d.code)).to.deep.equal(["GSQL4012"]);
    const ok = applySchemaChangeJob(base, {
      kind: "schemaChangeJob", name: n("j"), global: true, range: R, statements: [
        { kind: "addAttributes", what: "vertex", typeName: n("P"), attributes: [attr("city", "STRING")], range: R },
      ],
    }, new DiagnosticLog());
    expect(ok.schema.vertexTypes[0]!.attributes.map((a) => a.name)).to.deep.equal(["name", "age", "ok", "city"]);
    expect(ok.schema.graphs[0]!.version).to.equal(1);
    expect(ok.schema.globalVersion).to.equal(1);
    expect(base.vertexTypes[0]!.attributes.length).to.equal(3);
  });
});
