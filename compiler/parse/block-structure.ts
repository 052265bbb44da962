// Block structure of query bodies, found from the tokens before parsing. GSQL writes both a
// chained branch (`IF a THEN x ELSE IF b THEN y END`: one END) and an IF nested in an ELSE
// branch (`... ELSE IF b THEN y END END`: two ENDs) as `ELSE IF`. Matching IF, CASE, WHILE,
// FOREACH and TRY against END tells them apart: every `ELSE IF` is read as a chain unless an
// END would otherwise be left over, in which case the chained IF of the most recently closed
// block becomes a nested IF with that block's END. Chained IFs get the token type CHAIN_IF.
// The same pass bounds block nesting, which no real query comes near.
import type { Token } from "antlr4ng";
import { GSQLLexer } from "./generated/GSQLLexer.js";

/** Deepest IF/CASE/WHILE/FOREACH/TRY nesting accepted (parsing deeper input would only exhaust the stack). */
export const MAX_BLOCK_DEPTH = 200;

/** Re-reads of one body after turning a chained IF into a nested one; bounds hostile input. */
const MAX_REREADS = 200;

interface Block {
  isIf: boolean;
  /** Indices (into the body's token list) of this block's chained `ELSE IF`s, in order. */
  chained: number[];
}

/**
 * Marks chained `ELSE IF`s as CHAIN_IF in every `{ ... }` body of `tokens` (default-channel
 * tokens in order). Returns the first token nested deeper than MAX_BLOCK_DEPTH, if any.
 */
export function markChainedIfs(tokens: Token[]): Token | undefined {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i]!.type;
    if (type === GSQLLexer.LBRACE && depth++ === 0) start = i + 1;
    else if (type === GSQLLexer.RBRACE && depth > 0 && --depth === 0) {
      const tooDeep = markBody(tokens.slice(start, i));
      if (tooDeep) return tooDeep;
    }
  }
  return depth > 0 ? markBody(tokens.slice(start)) : undefined;
}

function markBody(body: Token[]): Token | undefined {
  const nested = new Set<number>();
  for (let reread = 0; ; reread++) {
    const result = readBody(body, nested);
    if (result.tooDeep) return result.tooDeep;
    if (result.convert === undefined || reread === MAX_REREADS) {
      for (const i of result.chained) body[i]!.type = GSQLLexer.CHAIN_IF;
      return undefined;
    }
    nested.add(result.convert);
  }
}

/**
 * One pass over a body. Stops at the first END with no open block and names the chained IF
 * to read as nested instead (`convert`); otherwise returns the chained IFs found.
 */
function readBody(body: Token[], nested: Set<number>): { chained: number[]; convert?: number; tooDeep?: Token } {
  const open: Block[] = [];
  const closed: Block[] = [];
  const chained: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const type = body[i]!.type;
    if (i > 0 && body[i - 1]!.type === GSQLLexer.DOT) continue; // `x.end`: a member name
    switch (type) {
      case GSQLLexer.IF: {
        const top = open[open.length - 1];
        if (i > 0 && body[i - 1]!.type === GSQLLexer.ELSE && top?.isIf && !nested.has(i)) {
          top.chained.push(i);
          chained.push(i);
        } else {
          open.push({ isIf: true, chained: [] });
        }
        break;
      }
      case GSQLLexer.CASE: case GSQLLexer.WHILE: case GSQLLexer.FOREACH: case GSQLLexer.TRY:
        open.push({ isIf: false, chained: [] });
        break;
      case GSQLLexer.END: {
        const block = open.pop();
        if (block !== undefined) {
          closed.push(block);
          break;
        }
        for (let c = closed.length - 1; c >= 0; c--) {
          const candidate = closed[c]!;
          if (candidate.chained.length > 0) return { chained, convert: candidate.chained[candidate.chained.length - 1]! };
        }
        break; // a stray END: the parser reports it
      }
      default:
        continue;
    }
    if (open.length > MAX_BLOCK_DEPTH) return { chained, tooDeep: body[i]! };
  }
  return { chained };
}
