// What the output formatter needs to know about the graph a run read: external ids, type
// names, and the JSON of stored attributes and edges. The store provides the real reader
// over a snapshot; tests provide small ones.

export interface GraphReader {
  /** The external (primary) id of internal vertex `v`, as printed in `v_id`. */
  vertexId(v: number): string;
  /** The type name of internal vertex `v`. */
  vertexType(v: number): string;
  /**
   * The stored attributes of `v` as JSON object members without the braces
   * (`"name":"Ann","age":30`), formatted exactly as query output prints them.
   */
  vertexAttributesJson(v: number): string;
  /** A whole edge record (`{"e_type":...}`) for the edge in slot `slot` of edge type `edgeType`. */
  edgeJson(edgeType: number, from: number, to: number, slot: number): string;
}
