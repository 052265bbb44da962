// Human wording for syntax errors: what was found (`';'`, `'SELECT'`, end of input) and what
// was expected, with large expected sets summarised by the construct they start ("an
// expression", "a statement") instead of a list of forty tokens.
import { Token, type IntervalSet, type Parser } from "antlr4ng";
import { GSQLLexer } from "./generated/GSQLLexer.js";
import { GSQLParser } from "./generated/GSQLParser.js";

/** Tokens described by a phrase instead of their literal. */
const TOKEN_PHRASES: Partial<Record<number, string>> = {
  [GSQLLexer.ID]: "a name",
  [GSQLLexer.INT_LIT]: "an integer",
  [GSQLLexer.REAL_LIT]: "a number",
  [GSQLLexer.STRING_LIT]: "a string",
  [GSQLLexer.GLOBAL_ACCUM]: "'@@accumulator'",
  [GSQLLexer.LOCAL_ACCUM]: "'@accumulator'",
  [GSQLLexer.COLUMN_POS]: "a column such as '$0'",
  [GSQLLexer.COLUMN_NAME]: "a column such as '$\"name\"'",
  [GSQLLexer.POST_ACCUM]: "'POST-ACCUM'",
  [GSQLLexer.CHAIN_IF]: "'IF'",
  [Token.EOF]: "end of input",
};

/** Constructs whose whole first set is summarised by one phrase, largest first. */
const SUMMARISED_RULES: [number, string][] = [
  [GSQLParser.RULE_topStatementBody, "a command"],
  [GSQLParser.RULE_queryStatement, "a statement"],
  [GSQLParser.RULE_dmlStatement, "a statement"],
  [GSQLParser.RULE_expr, "an expression"],
  [GSQLParser.RULE_arith, "an expression"],
  [GSQLParser.RULE_dataType, "a type"],
  [GSQLParser.RULE_accumTypeName, "an accumulator type"],
  [GSQLParser.RULE_identifier, "a name"],
];

let firstSets: { tokens: Set<number>; phrase: string }[] | undefined;

function ruleFirstSets(parser: Parser): { tokens: Set<number>; phrase: string }[] {
  if (firstSets === undefined) {
    firstSets = SUMMARISED_RULES.map(([rule, phrase]) => {
      const start = parser.atn.ruleToStartState[rule]!;
      return { tokens: new Set(parser.atn.nextTokens(start).toArray()), phrase };
    }).sort((a, b) => b.tokens.size - a.tokens.size);
  }
  return firstSets;
}

/** A token as written, quoted, or "end of input". */
export function describeFound(token: Token | null): string {
  if (token === null || token.type === Token.EOF) return "end of input";
  const text = token.text ?? "";
  const shown = text.length > 24 ? text.slice(0, 21) + "..." : text;
  return `'${shown.replace(/\s+/g, " ")}'`;
}

function describeTokenType(parser: Parser, type: number): string {
  const phrase = TOKEN_PHRASES[type];
  if (phrase !== undefined) return phrase;
  const literal = parser.vocabulary.getLiteralName(type);
  if (literal) return literal;
  return parser.vocabulary.getSymbolicName(type) ?? `token ${type}`;
}

/** "X", "X or Y", "X, Y or Z", or "one of X, Y, ... (and N more)" for an expected-token set. */
export function describeExpected(parser: Parser, expected: IntervalSet): string {
  const remaining = new Set(expected.toArray());
  const phrases: string[] = [];
  for (const { tokens, phrase } of ruleFirstSets(parser)) {
    if (tokens.size < 3) continue;
    let covered = true;
    for (const t of tokens) if (!remaining.has(t)) { covered = false; break; }
    if (!covered) continue;
    for (const t of tokens) remaining.delete(t);
    if (!phrases.includes(phrase)) phrases.push(phrase);
  }
  const endOfInput = remaining.delete(Token.EOF);
  const listed = [...remaining].sort((a, b) => a - b).map((t) => describeTokenType(parser, t));
  const all = [...phrases, ...listed.filter((d) => !phrases.includes(d))];
  if (endOfInput) all.push("end of input");
  if (all.length === 0) return "something else";
  if (all.length === 1) return all[0]!;
  const limit = 8;
  if (all.length > limit) return `one of ${all.slice(0, limit).join(", ")} (and ${all.length - limit} more)`;
  return `${all.slice(0, -1).join(", ")} or ${all[all.length - 1]}`;
}

/** Wording for the construct a parser rule reads, used when no single token was expected. */
export function describeRule(ruleName: string): string {
  switch (ruleName) {
    case "expr": case "predicate": case "arith": case "primary": case "args":
      return "an expression";
    case "queryStatement": return "a query statement";
    case "dmlStatement": case "dmlList": return "an ACCUM / POST-ACCUM statement";
    case "topStatement": case "topStatementBody": case "script": return "a command";
    case "pattern": case "patternVertex": case "patternEdge": case "edgeSegment": case "edgeAtom": case "fromClause":
      return "a FROM pattern";
    case "type": case "baseType": case "collectionType": case "tupleType": case "declType":
      return "a type";
    case "accumType": case "accumTypeArg": case "heapOptions": case "heapArg": return "an accumulator type";
    case "chain": case "chainHead": case "chainPart": return "a statement";
    default:
      return "this " + ruleName.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  }
}
