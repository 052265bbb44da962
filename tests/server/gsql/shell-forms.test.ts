// The text forms the GSQL executor produces and reads: RUN QUERY arguments turned into
// GET /query parameters, INSTALL's curl line, the progress bar, indented JSON that keeps
// 64-bit integers exact, and the session cookie.
import { expect } from "chai";
import { analyzeSource } from "../../../compiler/front-end.js";
import type { AstRunQuery } from "../../../compiler/ast/index.js";
import { argumentsToParameters, curlParameters, paramsOf } from "../../../server/gsql/exec/query-params.js";
import { progressBar } from "../../../server/gsql/exec/query-install.js";
import { prettyJson } from "../../../server/gsql/exec/json-pretty.js";
import { cookieOfSession, sessionFromCookie } from "../../../server/gsql/session.js";

function paramsFrom(header: string) {
  const text = `CREATE QUERY q(${header}) FOR GRAPH g { PRINT 1; }`;
  const ast = analyzeSource(text, "q.gsql", { astOnly: true }).ast;
  const q = ast.statements[0]!;
  if (q.kind !== "CreateQuery") throw new Error("not a query");
  return paramsOf(q.params, text);
}

function runArgs(call: string) {
  const ast = analyzeSource(`RUN QUERY ${call}`, "r.gsql", { astOnly: true }).ast;
  return (ast.statements[0] as AstRunQuery).args;
}

describe("GSQL shell forms", () => {
  const header = "INT k, VERTEX<Person> p, VERTEX v, SET<STRING> tags, SET<VERTEX> vs, DOUBLE d = 0.5";
  const params = paramsFrom(header);

  it("parameters keep their ls form, their query-string form and their default text", () => {
    expect(params).to.deep.equal([
      { name: "k", type: "int", form: "scalar" },
      { name: "p", type: "vertex<Person>", form: "scalar" },
      { name: "v", type: "vertex", form: "untypedVertex" },
      { name: "tags", type: "set<string>", form: "collection" },
      { name: "vs", type: "set<vertex>", form: "untypedVertexCollection" },
      { name: "d", type: "double", form: "scalar", default: "0.5" },
    ]);
  });

  it("the curl line names each parameter in its query-string form, defaults in brackets", () => {
    expect(curlParameters(params)).to.equal(
      "k=VALUE&p=VALUE&v=VALUE&v.type=VERTEX_TYPE&tags=VALUE&vs[INDEX]=VALUE&vs[INDEX].type=VERTEX_TYPE&[d=VALUE]",
    );
  });

  it("RUN QUERY arguments become the parameters of GET /query, 64-bit values exact", () => {
    const args = runArgs(`q(9223372036854775807, "Ann", ("x1", "Post"), ["a", "b c"], [("1", "A"), ("2", "B")], _)`);
    const result = argumentsToParameters("q", params, args);
    expect(result.ok).to.equal(true);
    if (!result.ok) return;
    expect([...result.parameters]).to.deep.equal([
      ["k", "9223372036854775807"], ["p", "Ann"], ["v", "x1"], ["v.type", "Post"], ["tags", "a"], ["tags", "b c"],
      ["vs[0]", "1"], ["vs[0].type", "A"], ["vs[1]", "2"], ["vs[1].type", "B"],
    ]);
  });

  it("too many arguments, a missing required value, and a badly written vertex are refused", () => {
    expect(argumentsToParameters("q", params, runArgs("q(1,2,3,4,5,6,7)"))).to.deep.equal({
      ok: false, message: "The query q takes 6 parameter(s), but 7 argument(s) were given.",
    });
    expect(argumentsToParameters("q", params, runArgs("q()"))).to.deep.equal({
      ok: false, message: "The parameter k of the query q has no default: give a value.",
    });
    const bad = argumentsToParameters("q", params, runArgs(`q(1, "p", "just-an-id")`));
    expect(bad).to.deep.equal({ ok: false, message: `Bad argument for the parameter v of the query q: a vertex is written ("id", "VertexType").` });
  });

  it("the progress bar has the form the shell client redraws", () => {
    const pattern = /^\[=*\s*\]\s[0-9]+%.*/;
    expect(progressBar(1, 2)).to.match(pattern);
    expect(progressBar(1, 2)).to.equal(`[${"=".repeat(36)}${" ".repeat(36)}] 50% (1/2)`);
    expect(progressBar(3, 3)).to.equal(`[${"=".repeat(72)}] 100% (3/3)`);
  });

  it("JSON is indented without losing digits or touching strings", () => {
    const text = `{"a":12345678901234567890,"s":"x,{y}:\\"z\\"","e":[],"o":{},"l":[1,{"b":true}]}`;
    expect(prettyJson(text)).to.equal([
      "{",
      '  "a": 12345678901234567890,',
      '  "s": "x,{y}:\\"z\\"",',
      '  "e": [],',
      '  "o": {},',
      '  "l": [',
      "    1,",
      "    {",
      '      "b": true',
      "    }",
      "  ]",
      "}",
    ].join("\n"));
  });

  it("the session travels in the cookie; unknown parameters and prototype keys are dropped", () => {
    const s = sessionFromCookie(`{"graph":"G","terminalWidth":80,"sessionParameters":{"syntax_version":"v2","evil":"x"},"__proto__":{"p":1}}`);
    expect(s.graph).to.equal("G");
    expect(s.parameters).to.deep.equal({ syntax_version: "v2" });
    expect(JSON.parse(cookieOfSession(s))).to.deep.equal({ terminalWidth: 80, graph: "G", sessionParameters: { syntax_version: "v2" } });
    expect(({} as Record<string, unknown>).p).to.equal(undefined);
    // Older clients append "; GSQLCookie=<json>" to a cookie they were given.
    expect(sessionFromCookie(`{"graph":"A"}; GSQLCookie={"graph":"B"}`).graph).to.equal("B");
  });
});
