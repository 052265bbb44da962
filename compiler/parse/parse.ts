// The parse stage: GSQL text → ANTLR parse tree. Lexical problems (unknown characters,
// unterminated strings and comments) and syntax errors become diagnostics; nothing throws.
// Parsing runs in SLL mode first (fast, enough for correct input) and falls back to full
// LL with error recovery only when SLL fails.
import {
  BailErrorStrategy, CharStream, CommonTokenStream, ParseCancellationException, PredictionMode, Token, type ParserRuleContext,
} from "antlr4ng";
import { GSQLLexer } from "./generated/GSQLLexer.js";
import { GSQLParser, ScriptContext } from "./generated/GSQLParser.js";
import type { DiagnosticLog } from "../diagnostics/diagnostic-log.js";
import { SourceText } from "./source-text.js";
import { DiagnosticErrorStrategy, SyntaxErrorCounter } from "./error-strategy.js";
import { markChainedIfs } from "./block-structure.js";

export interface ParsedScript {
  tree: ScriptContext;
  source: SourceText;
  /** True when any lexical or syntax error was reported for this text. */
  hasSyntaxErrors: boolean;
  /** Rule contexts in which the parser met a syntax error (each with all its ancestors). */
  errorContexts: ReadonlySet<ParserRuleContext>;
  /** Whether the fast SLL pass failed and the text was parsed again in full LL mode. */
  usedFullLL: boolean;
}

/** Parses a whole GSQL text. Diagnostics go to `log`; the tree is partial where errors were. */
export function parse(source: string, file: string, log: DiagnosticLog): ParsedScript {
  const text = new SourceText(source, file);
  const errors = new SyntaxErrorCounter(log, text);
  const lexer = new GSQLLexer(CharStream.fromString(source));
  lexer.removeErrorListeners();
  const tokens = new CommonTokenStream(lexer);
  try {
    tokens.fill();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    log.report("GSQL1010", text.range(0, 0));
    return { tree: new ScriptContext(null, -1), source: text, hasSyntaxErrors: true, errorContexts: errors.erroneous, usedFullLL: false };
  }
  reportLexicalProblems(tokens.getTokens(), errors);
  const tooDeep = markChainedIfs(tokens.getTokens().filter((t) => t.channel === Token.DEFAULT_CHANNEL));
  if (tooDeep !== undefined) {
    log.report("GSQL1010", text.rangeOfCodePoints(tooDeep.start, tooDeep.stop));
    return { tree: new ScriptContext(null, -1), source: text, hasSyntaxErrors: true, errorContexts: errors.erroneous, usedFullLL: false };
  }

  const parser = new GSQLParser(tokens);
  parser.removeErrorListeners();
  let tree: ScriptContext;
  let usedFullLL = false;
  try {
    const sll = parseSll(parser);
    if (sll !== undefined) {
      tree = sll;
    } else {
      usedFullLL = true;
      tree = parseLl(parser, tokens, errors);
    }
  } catch (error) {
    // Only a stack overflow can escape the parser: input nested far deeper than any real query.
    if (!(error instanceof RangeError)) throw error;
    log.report("GSQL1010", text.range(0, 0));
    return { tree: new ScriptContext(null, -1), source: text, hasSyntaxErrors: true, errorContexts: errors.erroneous, usedFullLL: false };
  }
  return { tree, source: text, hasSyntaxErrors: errors.count > 0 || errors.capped, errorContexts: errors.erroneous, usedFullLL };
}

/** The fast pass: SLL prediction, giving up at the first error. Undefined when it gave up. */
function parseSll(parser: GSQLParser): ScriptContext | undefined {
  parser.interpreter.predictionMode = PredictionMode.SLL;
  parser.errorHandler = new BailErrorStrategy();
  try {
    return parser.script();
  } catch (error) {
    if (!(error instanceof ParseCancellationException)) throw error;
    return undefined;
  }
}

/** The full pass: LL prediction with error recovery and diagnostics. */
function parseLl(parser: GSQLParser, tokens: CommonTokenStream, errors: SyntaxErrorCounter): ScriptContext {
  tokens.seek(0);
  parser.reset();
  parser.interpreter.predictionMode = PredictionMode.LL;
  parser.errorHandler = new DiagnosticErrorStrategy(errors);
  return parser.script();
}

/**
 * Reports what the lexer could not read and repairs it so the parser sees sensible input:
 * an unterminated string is read as a string, unknown characters and an unterminated
 * comment are already off the parser's channel.
 */
function reportLexicalProblems(all: Token[], errors: SyntaxErrorCounter): void {
  for (let i = 0; i < all.length; i++) {
    const token = all[i]!;
    switch (token.type) {
      case GSQLLexer.UNTERMINATED_STRING:
        errors.report("GSQL1007", token, {});
        token.type = GSQLLexer.STRING_LIT;
        break;
      case GSQLLexer.UNTERMINATED_COMMENT:
        errors.report("GSQL1008", token, {});
        break;
      case GSQLLexer.UNKNOWN_CHAR: {
        // One diagnostic per run of adjacent unknown characters.
        let last = token;
        while (i + 1 < all.length && all[i + 1]!.type === GSQLLexer.UNKNOWN_CHAR && all[i + 1]!.start === last.stop + 1) {
          last = all[++i]!;
        }
        const found = token.text ?? "";
        errors.report("GSQL1006", token, { found: `'${found.length === 1 ? found : found.slice(0, 1)}'` });
        break;
      }
      default:
        break;
    }
  }
}
