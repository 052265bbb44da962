// Every wrong input gives exactly its expected codes at the expected line:col.
import { expect } from "chai";
import { brief, check, markers } from "./helpers.js";
import { CASES, SCHEMA } from "./semantic-errors.cases.js";

describe("bind: semantic errors at the right place", () => {
  it("the shared schema itself binds with no diagnostics", () => {
    expect(brief(check(SCHEMA).diagnostics)).to.deep.equal([]);
  });
  for (const c of CASES) {
    it(c.name, () => {
      const { text, positions } = markers(SCHEMA + c.text);
      expect(positions.length, "markers").to.equal(c.codes.length);
      const expected = c.codes.map((code, i) => `${code} ${positions[i]}`);
      expect(brief(check(text).diagnostics)).to.deep.equal(expected);
    });
  }
});

// RAISE is not a DML-level statement in the grammar, so text cannot put one in ACCUM; the
// binder still refuses one there when an AST is built by other means.
import { analyzeSource } from "../../../compiler/front-end.js";
import { DiagnosticLog } from "../../../compiler/diagnostics/index.js";
import { bind, MemoryCatalog } from "../../../compiler/bind/index.js";
import { emptySchema } from "../../../runtime-wasm/schema/types.js";
import type { AstStatement } from "../../../compiler/ast/index.js";

describe("bind: RAISE inside a SELECT", () => {
  it("gives GSQL3019 at the RAISE", () => {
    const text = SCHEMA + `CREATE QUERY q() FOR GRAPH Social SYNTAX V1 {
  EXCEPTION bad (40001);
  S = {Person.*};
  S = SELECT t FROM S:s -(Knows:e)-> Person:t ACCUM t.@x += 1;
  RAISE bad ("x");
}
`;
    const fe = analyzeSource(text, "raise.gsql", { astOnly: true });
    expect(fe.log.diagnostics).to.deep.equal([]);
    const query = fe.ast.statements.find((s) => s.kind === "CreateQuery")!;
    if (query.kind !== "CreateQuery") throw new Error("no query");
    const [, , select, raise] = query.body as [AstStatement, AstStatement, AstStatement, AstStatement];
    if (select.kind !== "Assign" || select.value.kind !== "Select" || !select.value.accum) throw new Error("unexpected AST");
    select.value.accum.body = [raise];
    query.body = query.body.slice(0, 3);
    const log = new DiagnosticLog();
    bind(fe.ast, new MemoryCatalog(emptySchema()), log);
    expect(log.diagnostics.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.column}`))
      .to.include(`GSQL3019 ${raise.range.start.line}:${raise.range.start.column}`);
  });
});
