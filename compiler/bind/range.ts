// Source ranges as the binder uses them; the shape the AST gives every node.
export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

export interface SourceRange {
  start: SourcePosition;
  end: SourcePosition;
}
