// Turns the parser's syntax errors into diagnostics with exact positions and readable
// messages, while keeping ANTLR's recovery (single-token insertion/deletion, then resync),
// so one run reports several errors. Reports stop after a cap to keep garbage input cheap.
import {
  DefaultErrorStrategy, Token, type IntervalSet, type NoViableAltException, type Parser, type ParserRuleContext, type RecognitionException,
} from "antlr4ng";
import type { DiagnosticLog } from "../diagnostics/diagnostic-log.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { MessageArgs } from "../diagnostics/diagnostic.js";
import type { SourceText } from "./source-text.js";
import { GSQLParser } from "./generated/GSQLParser.js";
import { describeExpected, describeFound, describeRule } from "./describe-tokens.js";

/** Most syntax errors reported for one text; past this, one GSQL1009 says the rest was skipped. */
export const MAX_SYNTAX_ERRORS = 50;

export class SyntaxErrorCounter {
  count = 0;
  capped = false;
  /** Token index of the last reported error (-1: none yet). */
  lastErrorTokenIndex = -1;
  private lastErrorOffset = -1;
  /** Every rule context that was active when an error was found or recovered from (with its ancestors). */
  readonly erroneous = new Set<ParserRuleContext>();

  constructor(private readonly log: DiagnosticLog, private readonly source: SourceText) {}

  /** Logs a syntax diagnostic unless the cap was reached. */
  report(code: DiagnosticCode, token: Token | null, args: MessageArgs): void {
    if (this.capped) return;
    // Recovery can meet the same token twice; one message per place is enough.
    const offset = token === null || token.type === Token.EOF ? Number.MAX_SAFE_INTEGER : token.start;
    if (offset === this.lastErrorOffset && code !== "GSQL1007" && code !== "GSQL1006") return;
    this.lastErrorOffset = offset;
    this.lastErrorTokenIndex = token?.tokenIndex ?? this.lastErrorTokenIndex;
    if (this.count >= MAX_SYNTAX_ERRORS) {
      this.capped = true;
      this.log.report("GSQL1009", this.tokenRange(token), { file: this.source.file });
      return;
    }
    this.count++;
    this.log.report(code, this.tokenRange(token), args);
  }

  markContext(context: ParserRuleContext | null): void {
    for (let ctx = context; ctx !== null && !this.erroneous.has(ctx); ctx = ctx.parent) this.erroneous.add(ctx);
  }

  tokenRange(token: Token | null) {
    if (token === null || token.type === Token.EOF || token.start < 0) return this.source.endRange();
    return this.source.rangeOfCodePoints(token.start, token.stop);
  }
}

/** A keyword that is not a name (the `identifier` rule would have taken it otherwise). */
function isReservedWord(token: Token): boolean {
  return token.type !== GSQLParser.ID && token.type !== Token.EOF && /^[A-Za-z_][A-Za-z0-9_]*$/.test(token.text ?? "");
}

/** Whether the parser is at the head of a statement list (and which kind), from its rule and expected tokens. */
function statementList(rule: number, expected: IntervalSet): "top" | "semicolon" | undefined {
  switch (rule) {
    case GSQLParser.RULE_script:
    case GSQLParser.RULE_shellBlock:
      return expected.contains(GSQLParser.CREATE) ? "top" : undefined;
    case GSQLParser.RULE_queryBody:
    case GSQLParser.RULE_queryStatement:
    case GSQLParser.RULE_exceptionHandler:
      return expected.contains(GSQLParser.PRINT) ? "semicolon" : undefined;
    case GSQLParser.RULE_createLoadingJob:
      return expected.contains(GSQLParser.DEFINE) ? "semicolon" : undefined;
    case GSQLParser.RULE_createSchemaChangeJob:
      return expected.contains(GSQLParser.ALTER) ? "semicolon" : undefined;
    default:
      return undefined;
  }
}

export class DiagnosticErrorStrategy extends DefaultErrorStrategy {
  constructor(private readonly errors: SyntaxErrorCounter) {
    super();
  }

  /**
   * At the head of a statement list (query body, job body, script), a token that cannot
   * start a statement is skipped together with the rest of its statement, up to the next
   * `;` (or to the next command at top level), and the list goes on. ANTLR's default would
   * leave the whole body instead, turning one bad statement into errors in all that follow.
   */
  override sync(recognizer: Parser): void {
    if (this.inErrorRecoveryMode(recognizer)) return;
    const stream = recognizer.inputStream;
    const next = stream.LA(1);
    const expected = recognizer.atn.nextTokens(recognizer.atn.states[recognizer.state]!);
    const list = statementList(recognizer.context?.ruleIndex ?? -1, expected);
    if (list === undefined || expected.contains(next) || expected.contains(Token.EPSILON) || next === Token.EOF) {
      super.sync(recognizer);
      return;
    }
    this.errors.markContext(recognizer.context);
    const found = recognizer.getCurrentToken();
    if (!(list === "top" && this.followsRecoveredCommand(recognizer))) {
      // Name the words that could also close the list here (END, ELSE, WHEN, '}').
      const closers = [GSQLParser.END, GSQLParser.ELSE, GSQLParser.WHEN, GSQLParser.RBRACE]
        .filter((t) => expected.contains(t)).map((t) => recognizer.vocabulary.getLiteralName(t)!);
      const options = [list === "top" ? "a command" : "a statement", ...closers];
      const last = options.pop()!;
      this.errors.report("GSQL1002", found, {
        found: describeFound(found), expected: options.length === 0 ? last : `${options.join(", ")} or ${last}`,
      });
    }
    let depth = 0;
    while (stream.LA(1) !== Token.EOF) {
      const type = stream.LA(1);
      if (depth === 0 && type === GSQLParser.RBRACE && list !== "top") break;
      if (depth === 0 && list === "top" && expected.contains(type)) break;
      recognizer.consume();
      if (type === GSQLParser.LBRACE) depth++;
      else if (type === GSQLParser.RBRACE) depth = Math.max(0, depth - 1);
      else if (type === GSQLParser.SEMI && depth === 0 && list === "semicolon" && expected.contains(stream.LA(1))) break;
    }
  }

  /**
   * Whether the previous command already had an error: then the text the parser stopped at
   * (typically the rest of a broken query body) is part of that mistake, not a new one.
   */
  private followsRecoveredCommand(recognizer: Parser): boolean {
    const children = recognizer.context?.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i] as ParserRuleContext;
      // Skip tokens and lone `;` statements: recovery often stops just after a `;`.
      if (child.start === undefined || child.start === null || child.getChildCount() === 0) continue;
      if (child.start.type === GSQLParser.SEMI && child.stop === child.start) continue;
      return this.errors.lastErrorTokenIndex >= child.start.tokenIndex;
    }
    return false;
  }

  /**
   * A reserved word where a name is expected: say so, and read it as the name so the rest
   * of the statement is checked normally.
   */
  override recoverInline(recognizer: Parser): Token {
    this.errors.markContext(recognizer.context);
    const token = recognizer.getCurrentToken();
    const expected = recognizer.getExpectedTokens();
    if (expected.contains(GSQLParser.ID) && isReservedWord(token)) {
      this.errors.report("GSQL1022", token, { word: token.text ?? "" });
      recognizer.consume();
      return token;
    }
    return super.recoverInline(recognizer);
  }

  /**
   * Never recover by deleting a `;`, a `}` or a keyword: they end statements or start
   * clauses, and dropping one turns a single mistake (`x = ;`, a missing pattern target
   * before WHERE) into errors in what follows.
   */
  override singleTokenDeletion(recognizer: Parser): Token | null {
    const next = recognizer.getCurrentToken();
    if (next.type === GSQLParser.SEMI || next.type === GSQLParser.RBRACE) return null;
    if (next.type !== GSQLParser.ID && /^[A-Za-z_]\w*$/.test(next.text ?? "")) return null;
    return super.singleTokenDeletion(recognizer);
  }

  /** Set when a reserved word stood where a name was expected: recovery then reads it as the name. */
  private readReservedWordAsName = false;

  override reportError(recognizer: Parser, e: RecognitionException): void {
    this.errors.markContext(recognizer.context);
    const token = e.offendingToken;
    const rule = recognizer.context?.ruleIndex;
    if ((rule === GSQLParser.RULE_identifier || rule === GSQLParser.RULE_plainName) && token !== null && isReservedWord(token)) {
      if (!this.inErrorRecoveryMode(recognizer)) {
        this.beginErrorCondition(recognizer);
        this.errors.report("GSQL1022", token, { word: token.text ?? "" });
      }
      this.readReservedWordAsName = true;
      return;
    }
    super.reportError(recognizer, e);
  }

  override recover(recognizer: Parser, e: RecognitionException): void {
    this.errors.markContext(recognizer.context);
    if (this.readReservedWordAsName) {
      this.readReservedWordAsName = false;
      recognizer.consume();
      this.endErrorCondition(recognizer);
      return;
    }
    super.recover(recognizer, e);
  }

  override reportInputMismatch(recognizer: Parser, e: RecognitionException): void {
    const found = e.offendingToken;
    const expected = describeExpected(recognizer, e.getExpectedTokens() ?? recognizer.getExpectedTokens());
    if (found === null || found.type === Token.EOF) this.errors.report("GSQL1005", found, { expected });
    else this.errors.report("GSQL1001", found, { found: describeFound(found), expected });
  }

  override reportNoViableAlternative(recognizer: Parser, e: NoViableAltException): void {
    const found = e.offendingToken;
    if (found === null || found.type === Token.EOF) {
      this.errors.report("GSQL1005", found, { expected: describeExpected(recognizer, recognizer.getExpectedTokens()) });
      return;
    }
    const context = e.ctx ?? recognizer.context;
    const rule = context ? recognizer.ruleNames[context.ruleIndex] ?? "" : "";
    this.errors.report("GSQL1004", found, { found: describeFound(found), construct: describeRule(rule) });
  }

  override reportFailedPredicate(recognizer: Parser, e: RecognitionException): void {
    this.errors.report("GSQL1002", e.offendingToken, {
      found: describeFound(e.offendingToken), expected: describeExpected(recognizer, recognizer.getExpectedTokens()),
    });
  }

  override reportUnwantedToken(recognizer: Parser): void {
    this.errors.markContext(recognizer.context);
    if (this.inErrorRecoveryMode(recognizer)) return;
    this.beginErrorCondition(recognizer);
    const found = recognizer.getCurrentToken();
    const expected = describeExpected(recognizer, this.getExpectedTokens(recognizer));
    if (found.type === Token.EOF) this.errors.report("GSQL1005", found, { expected });
    else this.errors.report("GSQL1002", found, { found: describeFound(found), expected });
  }

  override reportMissingToken(recognizer: Parser): void {
    this.errors.markContext(recognizer.context);
    if (this.inErrorRecoveryMode(recognizer)) return;
    this.beginErrorCondition(recognizer);
    const found = recognizer.getCurrentToken();
    this.errors.report("GSQL1003", found, {
      found: describeFound(found), expected: describeExpected(recognizer, this.getExpectedTokens(recognizer)),
    });
  }
}
