// Whether a query changes data: running one that does needs the data-writing privileges as
// well as READ_DATA (a queryreader runs read-only queries; a querywriter may run any). The
// answer comes from the query's AST: INSERT, UPDATE, DELETE, or an assignment to an
// attribute (`v.attr = ...`). Results are cached per query text.
import type { AstNode, AstScript } from "../../compiler/ast/index.js";
import { walkAst } from "../../compiler/ast/walk.js";

const DATA_WRITES = new Set<string>(["Insert", "Update", "DeleteFrom", "Delete"]);
const MAX_CACHED = 4096;

/** True when anything in `script` writes vertex or edge data. */
export function scriptWritesData(script: AstScript): boolean {
  let writes = false;
  walkAst(script, (node: AstNode) => {
    if (writes) return false;
    if (DATA_WRITES.has(node.kind)) writes = true;
    // `v.attr = x` writes an attribute; `v.@acc = x` is an AccumAccess and writes nothing stored.
    else if (node.kind === "Assign" && node.target.kind === "FieldAccess") writes = true;
    return !writes;
  });
  return writes;
}

/** Memoises `scriptWritesData` of query texts, parsed with the server's parser. */
export class QueryWriteCache {
  private readonly byText = new Map<string, boolean>();

  constructor(private readonly parse: (text: string) => AstScript) {}

  writesData(text: string): boolean {
    const known = this.byText.get(text);
    if (known !== undefined) return known;
    // A text that no longer parses is treated as writing: the stricter check is the safe one.
    let writes = true;
    try {
      writes = scriptWritesData(this.parse(text));
    } catch {
      writes = true;
    }
    if (this.byText.size >= MAX_CACHED) this.byText.clear();
    this.byText.set(text, writes);
    return writes;
  }
}
