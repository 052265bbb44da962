// Generic traversal of the AST. Nodes are plain objects with a `kind` and a `range`; every
// property that holds a node (or an array of nodes) is a child, in declaration order.
import type { AstNode } from "./index.js";

function isNode(value: unknown): value is AstNode {
  return typeof value === "object" && value !== null && "kind" in value && "range" in value;
}

/** The direct children of `node`, in source order of their properties. */
export function childrenOf(node: AstNode): AstNode[] {
  const children: AstNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "range") continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) children.push(item);
    } else if (isNode(value)) {
      children.push(value);
    } else if (typeof value === "object" && value !== null) {
      // Small records without a kind (e.g. AstShow.on) may still hold nodes.
      for (const inner of Object.values(value)) if (isNode(inner)) children.push(inner);
    }
  }
  return children;
}

/** Calls `visit` on `node` and every node below it, parents before children. Return false to skip a subtree. */
export function walkAst(node: AstNode, visit: (node: AstNode, parent: AstNode | undefined) => boolean | void,
  parent?: AstNode): void {
  if (visit(node, parent) === false) return;
  for (const child of childrenOf(node)) walkAst(child, visit, node);
}
