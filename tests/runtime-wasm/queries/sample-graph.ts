// The sample graph G of the query-language notes (gsql-semantics §0): three people, Knows
// edges a→b (w=1), a→c (w=2), b→c (w=3), and one undirected Friend edge a–b.
import type { UpsertBatch } from "../../../runtime-wasm/store/index.js";

export const SAMPLE_DDL = `
CREATE VERTEX P (PRIMARY_ID pid STRING, name STRING, age INT)
CREATE DIRECTED EDGE Knows (FROM P, TO P, w INT)
CREATE UNDIRECTED EDGE Friend (FROM P, TO P)
CREATE GRAPH G (P, Knows, Friend)
`;

const p = (id: string, name: string, age: number) => ({ type: "P", id, attributes: [{ name: "name", value: name }, { name: "age", value: age }] });
const knows = (from: string, to: string, w: number) => ({ type: "Knows", from: { type: "P", id: from }, to: { type: "P", id: to }, attributes: [{ name: "w", value: w }] });

export const SAMPLE_DATA: UpsertBatch = {
  vertices: [p("a", "Ann", 30), p("b", "Bob", 25), p("c", "Cid", 35)],
  edges: [knows("a", "b", 1), knows("a", "c", 2), knows("b", "c", 3), { type: "Friend", from: { type: "P", id: "a" }, to: { type: "P", id: "b" } }],
};
