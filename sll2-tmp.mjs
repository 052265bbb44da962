import { CharStream, CommonTokenStream, PredictionMode, BailErrorStrategy } from "antlr4ng";
import { GSQLLexer } from "./dist/compiler/parse/generated/GSQLLexer.js";
import { GSQLParser } from "./dist/compiler/parse/generated/GSQLParser.js";
const stmts = process.argv.slice(2);
for (const s of stmts) {
  const text = `CREATE QUERY q() FOR GRAPH G { ${s} }`;
  const lexer = new GSQLLexer(CharStream.fromString(text));
  const tokens = new CommonTokenStream(lexer); tokens.fill();
  const p = new GSQLParser(tokens); p.removeErrorListeners();
  p.interpreter.predictionMode = PredictionMode.SLL; p.errorHandler = new BailErrorStrategy();
  let ok = true; let tok = "";
  try { p.script(); } catch (e) { ok = false; tok = e.cause?.offendingToken?.text ?? String(e).slice(0,80); }
  console.log(ok ? "ok  " : "FAIL", s, tok);
}
