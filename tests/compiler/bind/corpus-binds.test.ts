// The front end's corpus binds with no diagnostics against the schema DDL in it, exactly
// as `gsqlc check --schema 00-schema.gsql` checks it.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeSource } from "../../../compiler/front-end.js";
import { DiagnosticLog, formatDiagnosticText } from "../../../compiler/diagnostics/index.js";
import { SOURCE_DIR } from "./valid.test.js";

const CORPUS = join(SOURCE_DIR, "..", "corpus");

describe("bind: the corpus binds clean against its schema", () => {
  const schemaText = readFileSync(join(CORPUS, "00-schema.gsql"), "utf8");
  const schemaLog = new DiagnosticLog();
  const schema = analyzeSource(schemaText, "00-schema.gsql", { log: schemaLog });

  it("00-schema.gsql", () => {
    expect(schemaLog.diagnostics.map((d) => formatDiagnosticText(d, schemaText))).to.deep.equal([]);
    expect(schema.bound!.schema.graphs.map((g) => g.name)).to.deep.equal(["Social", "Everything", "Nothing"]);
  });

  for (const f of readdirSync(CORPUS).filter((x) => x.endsWith(".gsql") && x !== "00-schema.gsql").sort()) {
    it(f, () => {
      const text = readFileSync(join(CORPUS, f), "utf8");
      const log = new DiagnosticLog();
      const fe = analyzeSource(text, f, { log, schema: schema.ast });
      expect(log.diagnostics.map((d) => formatDiagnosticText(d, text))).to.deep.equal([]);
      expect(fe.bound).to.not.equal(undefined);
    });
  }

  it("binds every query of the corpus", () => {
    let queries = 0;
    for (const f of readdirSync(CORPUS).filter((x) => x.endsWith(".gsql")).sort()) {
      const text = readFileSync(join(CORPUS, f), "utf8");
      const fe = analyzeSource(text, f, { schema: schema.ast });
      const created = fe.ast.statements.filter((s) => s.kind === "CreateQuery" || s.kind === "InterpretAnonymousQuery").length;
      expect(fe.bound!.queries.length, f).to.equal(created);
      queries += created;
    }
    expect(queries).to.be.greaterThan(20);
  });
});
