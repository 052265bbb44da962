// The parse stage's entry point and the types later stages read.
export { parse, type ParsedScript } from "./parse.js";
export { SourceText } from "./source-text.js";
export * as gsql from "./generated/GSQLParser.js";
export { GSQLLexer } from "./generated/GSQLLexer.js";
