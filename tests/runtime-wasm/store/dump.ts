// Canonical, comparable dumps of a store's content read through a snapshot: every vertex with
// its attributes and every edge from each end that lists it, as sorted plain data.
import type { AttrValue } from "../../../runtime-wasm/schema/types.js";
import type { GraphStore, Snapshot } from "../../../runtime-wasm/store/index.js";

export interface StoreDump {
  vertices: Record<string, Record<string, Record<string, string>>>;
  edges: Record<string, string[]>;
}

/** A value as text that tells types apart: 5n, 5, "5", true, [..]. */
export function show(v: AttrValue | undefined): string {
  if (typeof v === "bigint") return `${v}n`;
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? "undefined";
}

export function dumpSnapshot(s: Snapshot): StoreDump {
  const out: StoreDump = { vertices: {}, edges: {} };
  for (const t of s.schema.vertexTypes) {
    const byId: Record<string, Record<string, string>> = {};
    for (const vid of s.vertices(t.key)) {
      const attrs = s.attributes(vid);
      byId[s.idText(vid)] = Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, show(v)]));
      for (const e of s.edges(vid)) {
        const attrsText = Object.entries(s.edgeAttributes(e)).map(([k, v]) => `${k}=${show(v)}`).join(",");
        (out.edges[e.type] ??= []).push(`${t.key}:${s.idText(vid)} -> ${s.typeOf(e.to)}:${s.idText(e.to)} {${attrsText}}`);
      }
    }
    out.vertices[t.key] = byId;
  }
  for (const list of Object.values(out.edges)) list.sort();
  return out;
}

export function dumpStore(store: GraphStore): StoreDump {
  return store.read(dumpSnapshot);
}
