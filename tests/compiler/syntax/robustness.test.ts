// Inputs at the edges: empty text, comments only, CRLF and tab layout, characters outside
// the BMP, a byte-order mark, floods of errors, and nesting deep enough to exhaust the stack.
import { expect } from "chai";
import { analyzeSource } from "../../../compiler/front-end.js";
import { MAX_SYNTAX_ERRORS } from "../../../compiler/parse/error-strategy.js";
import { MAX_BLOCK_DEPTH } from "../../../compiler/parse/block-structure.js";

function codes(text: string): string[] {
  return analyzeSource(text, "edge.gsql", { astOnly: true }).log.sorted().map((d) => `${d.code}@${d.range.start.line}:${d.range.start.column}`);
}

describe("front end at the edges", () => {
  it("accepts empty input, whitespace, comments and stray semicolons", () => {
    for (const text of ["", "   \n\t\n", "# only\n// comments\n/* here */", ";;\n;", "\uFEFFUSE GRAPH G"]) {
      expect(codes(text), JSON.stringify(text)).to.deep.equal([]);
    }
  });

  it("counts columns in UTF-16 units after CRLF line breaks and characters outside the BMP", () => {
    expect(codes("USE GRAPH G\r\nCREATE QUERY q() FOR GRAPH G {\r\n  PRINT \"\u{1F600}\" +;\r\n}\r\n")).to.deep.equal(["GSQL1001@3:15"]);
    const result = analyzeSource("CREATE QUERY q() FOR GRAPH G {\n\tPRINT \"\u{1F600}\", x;\n}", "u.gsql", { astOnly: true });
    const print = (result.ast.statements[0] as { body: { items: { range: { start: { column: number } }; text: string }[] }[] }).body[0]!;
    expect(print.items.map((i) => [i.text, i.range.start.column])).to.deep.equal([['"\u{1F600}"', 8], ["x", 14]]);
  });

  it(`stops reporting after ${MAX_SYNTAX_ERRORS} syntax errors and says so once`, () => {
    const lines = Array.from({ length: 80 }, () => "  INT x = ;");
    const found = codes(`CREATE QUERY q() FOR GRAPH G {\n${lines.join("\n")}\n}`);
    expect(found.filter((c) => c.startsWith("GSQL1001"))).to.have.length(MAX_SYNTAX_ERRORS);
    expect(found.filter((c) => c.startsWith("GSQL1009"))).to.deep.equal([`GSQL1009@${MAX_SYNTAX_ERRORS + 2}:11`]);
  });

  it("reports input nested too deeply instead of crashing, and parses normally afterwards", () => {
    const deep = `CREATE QUERY q() FOR GRAPH G { x = ${"(".repeat(50000)}1${")".repeat(50000)}; }`;
    expect(codes(deep)).to.deep.equal(["GSQL1010@1:1"]);
    expect(codes(`CREATE QUERY q() FOR GRAPH G { x = ${"(".repeat(200)}1${")".repeat(200)}; }`)).to.deep.equal([]);
    expect(codes("CREATE QUERY q() FOR GRAPH G { PRINT 1 + 2; }")).to.deep.equal([]);
  });

  it("reports statement blocks nested deeper than any real query instead of parsing them", () => {
    const text = `CREATE QUERY q() FOR GRAPH G {\n${"WHILE a DO ".repeat(MAX_BLOCK_DEPTH + 1)}x = 1;\n}`;
    expect(codes(text)).to.deep.equal([`GSQL1010@2:${11 * MAX_BLOCK_DEPTH + 1}`]);
    expect(codes(`CREATE QUERY q() FOR GRAPH G {\n${"IF a THEN ".repeat(50)}x = 1;${" END;".repeat(50)}\n}`)).to.deep.equal([]);
  });

  it("keeps the statements around a broken one", () => {
    const result = analyzeSource("USE GRAPH G\nCREATE QUERY bad() FOR GRAPH G { PRINT ; }\nINSTALL QUERY good\n", "mix.gsql", { astOnly: true });
    expect(result.hasSyntaxErrors).to.equal(true);
    expect(result.ast.statements.map((s) => s.kind)).to.deep.equal(["UseGraph", "InstallQuery"]);
  });
});
