// The diagnostics module: message templates, the collecting log, and both printers.
import { expect } from "chai";
import { DiagnosticLog } from "../../../compiler/diagnostics/diagnostic-log.js";
import { formatMessage } from "../../../compiler/diagnostics/diagnostic.js";
import { formatDiagnosticText, formatDiagnosticsJson } from "../../../compiler/diagnostics/printer.js";
import { DIAGNOSTIC_TABLE } from "../../../compiler/diagnostics/codes.js";
import { SourceText } from "../../../compiler/parse/source-text.js";

const source = "line one\n\tx = a + ;\nlast";
const text = new SourceText(source, "f.gsql");

describe("diagnostics", () => {
  it("fills message templates and leaves unknown placeholders visible", () => {
    expect(formatMessage("unexpected {found}; expected {expected}", { found: "';'", expected: "a name" }))
      .to.equal("unexpected ';'; expected a name");
    expect(formatMessage("value {missing}", {})).to.equal("value {missing}");
  });

  it("numbers codes by stage and gives every entry a severity and message", () => {
    for (const [code, entry] of Object.entries(DIAGNOSTIC_TABLE)) {
      expect(code).to.match(/^GSQL[1-5]\d{3}$/);
      expect(["error", "warning"]).to.include(entry.severity);
      expect(entry.message.length).to.be.greaterThan(5);
    }
  });

  it("collects without throwing, counts errors, and sorts by file and position", () => {
    const log = new DiagnosticLog();
    log.report("GSQL1001", text.range(15, 16), { found: "';'", expected: "an expression" });
    log.report("GSQL1006", text.range(0, 1), { found: "'~'" });
    log.add({ code: "GSQL1001", severity: "warning", message: "w", range: { ...text.range(2, 3), file: "a.gsql" } });
    expect(log.errorCount).to.equal(2);
    expect(log.hasErrors()).to.equal(true);
    expect(log.sorted().map((d) => `${d.range.file}:${d.range.start.offset}`)).to.deep.equal(["a.gsql:2", "f.gsql:0", "f.gsql:15"]);
    expect(log.diagnostics.map((d) => d.code)).to.deep.equal(["GSQL1001", "GSQL1006", "GSQL1001"]);
  });

  it("prints file:line:col, the source line and a caret that keeps tabs aligned", () => {
    const log = new DiagnosticLog();
    const d = log.report("GSQL1001", text.range(17, 18), { found: "';'", expected: "an expression" });
    expect(formatDiagnosticText(d, source)).to.equal(
      "f.gsql:2:9: error GSQL1001: unexpected ';'; expected an expression\n\tx = a + ;\n\t       ^");
    const wide = log.report("GSQL1016", text.range(10, 15));
    expect(formatDiagnosticText(wide, source).split("\n")[2]).to.equal("\t^~~~~");
    expect(formatDiagnosticText(wide)).to.equal("f.gsql:2:2: error GSQL1016: cannot assign to this expression");
  });

  it("underlines to the end of the first line of a multi-line range, and points past the end at end of input", () => {
    const log = new DiagnosticLog();
    const multi = log.report("GSQL1008", text.range(0, 20));
    expect(formatDiagnosticText(multi, source).split("\n").slice(1)).to.deep.equal(["line one", "^~~~~~~~"]);
    const end = log.report("GSQL1005", text.endRange(), { expected: "'}'" });
    expect(formatDiagnosticText(end, source)).to.equal("f.gsql:3:5: error GSQL1005: unexpected end of input; expected '}'\nlast\n    ^");
  });

  it("gives JSON objects with start and end positions", () => {
    const log = new DiagnosticLog();
    log.report("GSQL1006", text.range(11, 12), { found: "'x'" });
    expect(formatDiagnosticsJson(log.diagnostics)).to.deep.equal([{
      file: "f.gsql", line: 2, column: 3, endLine: 2, endColumn: 4, severity: "error", code: "GSQL1006",
      message: "unexpected character 'x'",
    }]);
  });
});
