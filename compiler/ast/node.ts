// The base of every AST node: a `kind` string that discriminates the node type and the
// source range the node was built from. AST nodes are plain data (JSON-serialisable apart
// from nothing: integers are kept as their source text, never as JS numbers).
import type { SourceRange } from "../diagnostics/source-range.js";

export type { SourceRange } from "../diagnostics/source-range.js";

export interface AstNodeBase {
  kind: string;
  range: SourceRange;
}

/** A name as written (case preserved; identifiers are case-sensitive). */
export interface AstIdent extends AstNodeBase {
  kind: "Ident";
  name: string;
}

/** `*` or `ALL` where a command accepts "every one" instead of a list of names. */
export interface AstAllNames extends AstNodeBase {
  kind: "AllNames";
  spelling: "*" | "ALL";
}

/** A `-flag` on a shell command (`-force`, `-OPTIMIZE`, `-av`, `-HARD`, `-n 10,20`...). */
export interface AstFlag extends AstNodeBase {
  kind: "Flag";
  /** The flag name as written, without the leading `-`. */
  name: string;
  /** The flag's argument text when it takes one (`-n 10,$` gives "10,$"). */
  value?: string;
}

/**
 * A string literal. `text` is exactly as written (quotes included); `value` drops the quotes
 * and resolves `\"`, `\\`, `\n`, `\t`, `\r`, keeping any other backslash as written (LIKE
 * patterns and loading separators give those their own meaning).
 */
export interface AstStringLiteral extends AstNodeBase {
  kind: "StringLiteral";
  text: string;
  value: string;
}
