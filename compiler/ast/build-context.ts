// What every AST-building function shares: the source (for ranges and exact text), the
// diagnostic log, and small helpers that turn parse-tree pieces into AST leaves.
import { ErrorNode, ParserRuleContext, TerminalNode, type ParseTree, type Token } from "antlr4ng";
import type { DiagnosticLog } from "../diagnostics/diagnostic-log.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { MessageArgs } from "../diagnostics/diagnostic.js";
import type { SourceRange } from "../diagnostics/source-range.js";
import type { SourceText } from "../parse/source-text.js";
import type { AstAllNames, AstFlag, AstIdent, AstStringLiteral } from "./node.js";
import type * as P from "../parse/generated/GSQLParser.js";

export class BuildContext {
  constructor(readonly source: SourceText, readonly log: DiagnosticLog) {}

  /** The range of a parse-tree node (rule or token). */
  range(node: ParseTree): SourceRange {
    if (node instanceof TerminalNode) return this.tokenRange(node.symbol);
    const ctx = node as ParserRuleContext;
    const start = ctx.start;
    const stop = ctx.stop !== null && ctx.stop.tokenIndex >= (start?.tokenIndex ?? 0) ? ctx.stop : start;
    if (start === null || stop === null || start.start < 0) return this.source.endRange();
    return this.source.rangeOfCodePoints(start.start, stop.stop);
  }

  /** The range from the start of `first` to the end of `last`. */
  span(first: ParseTree, last: ParseTree): SourceRange {
    const a = this.range(first);
    const b = this.range(last);
    return { file: a.file, start: a.start, end: b.end.offset >= a.end.offset ? b.end : a.end };
  }

  tokenRange(token: Token): SourceRange {
    if (token.start < 0) return this.source.endRange();
    return this.source.rangeOfCodePoints(token.start, token.stop);
  }

  /** The exact source text of a node. */
  text(node: ParseTree): string {
    const range = this.range(node);
    return this.source.slice(range.start.offset, range.end.offset);
  }

  /** The node's tokens concatenated: its text without whitespace or comments outside literals. */
  compactText(node: ParseTree): string {
    const parts: string[] = [];
    const collect = (n: ParseTree): void => {
      if (n instanceof TerminalNode) {
        if (n.symbol.type >= 0) parts.push(this.tokenText(n.symbol));
        return;
      }
      for (let i = 0; i < n.getChildCount(); i++) collect(n.getChild(i)!);
    };
    collect(node);
    return parts.join("");
  }

  report(code: DiagnosticCode, node: ParseTree | SourceRange, args?: MessageArgs): void {
    this.log.report(code, "file" in node ? node : this.range(node), args);
  }

  /**
   * A token's text, sliced from the source. (Reading `token.text` rebuilds the string from
   * the lexer's code points each time, which dominated AST building.)
   */
  tokenText(token: Token): string {
    if (token.start < 0) return token.text ?? "";
    return this.source.slice(this.source.offsetOfCodePoint(token.start), this.source.offsetOfCodePoint(token.stop + 1));
  }

  /** The text of a node that is one token (or the exact source text otherwise). */
  word(node: ParseTree): string {
    if (node instanceof TerminalNode) return this.tokenText(node.symbol);
    const ctx = node as ParserRuleContext;
    if (ctx.start !== null && ctx.start === ctx.stop) return this.tokenText(ctx.start);
    return this.text(ctx);
  }

  ident(ctx: ParseTree): AstIdent {
    return { kind: "Ident", name: this.word(ctx), range: this.range(ctx) };
  }

  identFromToken(token: TerminalNode, name = this.tokenText(token.symbol)): AstIdent {
    return { kind: "Ident", name, range: this.range(token) };
  }

  stringLiteral(token: TerminalNode): AstStringLiteral {
    const text = this.tokenText(token.symbol);
    return { kind: "StringLiteral", text, value: unescapeString(text), range: this.range(token) };
  }

  allNames(ctx: P.AllNamesContext): AstAllNames {
    return { kind: "AllNames", spelling: ctx.STAR() ? "*" : "ALL", range: this.range(ctx) };
  }

  /** A `-flag`; the `-` must touch the name (`- force` is reported, then read as `-force`). */
  flag(ctx: P.FlagContext): AstFlag {
    const dash = ctx.DASH().symbol;
    const name = ctx.memberName();
    if (name.start !== null && name.start.start !== dash.stop + 1) {
      this.report("GSQL1013", ctx, { flag: this.word(name) });
    }
    const value = ctx.flagValue();
    const flag: AstFlag = { kind: "Flag", name: this.word(name), range: this.range(ctx) };
    if (value !== null) flag.value = this.compactText(value);
    return flag;
  }

  /** Words written next to each other (`q*`, job ids, secrets) as one string. */
  joinedWords(ctx: ParserRuleContext): string {
    return this.text(ctx).replace(/\s+/g, "");
  }
}

/**
 * The value of a GSQL string literal: drops the quotes and resolves `\"`, `\\`, `\n`, `\t`
 * and `\r`. Any other backslash stays as written, because what it means belongs to where the
 * string is used: LIKE patterns escape `%` and `_` (`"%\_%"`), loading options write
 * separators as `"\xy"` (decimal character codes).
 */
export function unescapeString(text: string): string {
  const closed = text.length >= 2 && text.endsWith('"') && !isEscapedAt(text, text.length - 1);
  const body = text.slice(1, closed ? -1 : undefined);
  return body.replace(/\\(.)/gs, (all, ch: string) => {
    switch (ch) {
      case '"': return '"';
      case "\\": return "\\";
      case "n": return "\n";
      case "t": return "\t";
      case "r": return "\r";
      default: return all;
    }
  });
}

function isEscapedAt(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i > 0 && text[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** Whether a subtree holds a syntax error: a rule the parser recovered in, or a recovery token. */
export function containsSyntaxError(node: ParseTree, errorContexts: ReadonlySet<ParserRuleContext>): boolean {
  if (node instanceof ErrorNode) return true;
  if (node instanceof TerminalNode) return false;
  const ctx = node as ParserRuleContext;
  if (errorContexts.has(ctx)) return true;
  for (let i = 0; i < ctx.getChildCount(); i++) if (containsSyntaxError(ctx.getChild(i)!, errorContexts)) return true;
  return false;
}
