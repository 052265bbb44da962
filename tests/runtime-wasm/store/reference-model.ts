// A deliberately plain reference implementation of the store's rules over JS Maps, for the
// model-based test. It knows only the small schema family of model.test.ts: vertex types with
// STRING or INT ids and scalar/SET attributes, directed / reverse / undirected / discriminated
// edge types. Its dump has the shape of dumpSnapshot so the two can be compared directly.
import type { AttrValue, DatabaseSchema, EdgeType } from "../../../runtime-wasm/schema/types.js";
import type { EdgeSelector, UpsertBatch, UpsertOp, UpsertOptions, UpsertResult } from "../../../runtime-wasm/store/index.js";
import { show, type StoreDump } from "./dump.js";

type Attrs = Map<string, AttrValue>;
interface ModelEdge {
  type: string;
  from: string;
  to: string;
  attrs: Attrs;
}

/** "Type|id" with ids canonical (INT ids as decimal text). */
type VKey = string;

export class ReferenceModel {
  schema!: DatabaseSchema;
  vertices = new Map<VKey, Attrs>();
  retired = new Set<VKey>();
  edges = new Map<string, ModelEdge>();
  /** Edge type keys in the store's ordinal order (for selectors without a type). */
  edgeOrder: string[] = [];

  constructor(schema: DatabaseSchema) {
    this.setSchema(schema);
  }

  clone(): ReferenceModel {
    const m = new ReferenceModel(this.schema);
    m.vertices = new Map([...this.vertices].map(([k, v]) => [k, new Map(v)]));
    m.retired = new Set(this.retired);
    m.edges = new Map([...this.edges].map(([k, e]) => [k, { ...e, attrs: new Map(e.attrs) }]));
    m.edgeOrder = [...this.edgeOrder];
    return m;
  }

  setSchema(next: DatabaseSchema): void {
    const old = this.schema;
    this.schema = structuredClone(next);
    if (!old) return;
    const vertexKeys = new Set(next.vertexTypes.map((t) => t.key));
    const edgeKeys = new Set(next.edgeTypes.map((t) => t.key));
    for (const [k, e] of this.edges) {
      const gone = !edgeKeys.has(e.type) || !vertexKeys.has(typeOf(e.from)) || !vertexKeys.has(typeOf(e.to));
      if (gone) this.edges.delete(k);
    }
    for (const k of [...this.vertices.keys()]) if (!vertexKeys.has(typeOf(k))) this.vertices.delete(k);
    for (const k of [...this.retired]) if (!vertexKeys.has(typeOf(k))) this.retired.delete(k);
    for (const t of next.vertexTypes) {
      const before = old.vertexTypes.find((o) => o.key === t.key);
      for (const [k, attrs] of this.vertices) if (typeOf(k) === t.key) reconcile(attrs, t.attributes, before?.attributes ?? []);
    }
    for (const t of next.edgeTypes) {
      const before = old.edgeTypes.find((o) => o.key === t.key);
      for (const e of this.edges.values()) if (e.type === t.key) reconcile(e.attrs, t.attributes, before?.attributes ?? []);
    }
  }

  clear(): void {
    this.vertices.clear();
    this.retired.clear();
    this.edges.clear();
  }

  upsert(batch: UpsertBatch, o: UpsertOptions): UpsertResult | "OP_ON_MISSING_ITEM" {
    const result: UpsertResult = { acceptedVertices: 0, acceptedEdges: 0, createdEndpointVertices: 0, skippedVertices: [], skippedEdges: [], version: 0 };
    const created = new Set<VKey>();
    const exists = (k: VKey) => this.vertices.has(k) || created.has(k);
    const vertexPlans: number[] = [];
    (batch.vertices ?? []).forEach((item, index) => {
      const k = vkey(item.type, item.id);
      const there = exists(k);
      const reason = this.retired.has(k) ? "retired" : there && o.newVertexOnly ? "already_exists" : !there && o.updateVertexOnly ? "not_exists" : undefined;
      if (reason) {
        result.skippedVertices.push({ index, type: item.type, id: idOf(item.type, item.id, this.schema), reason });
        return;
      }
      if (!there && (item.attributes ?? []).some((w) => isNeedy(w.op))) throw new Missing();
      created.add(k);
      vertexPlans.push(index);
    });
    const edgePlans: number[] = [];
    const batchEdges = new Set<string>();
    (batch.edges ?? []).forEach((item, index) => {
      const def = this.edgeDef(item.type);
      const [from, to] = def.reverseOf ? [item.to, item.from] : [item.from, item.to];
      const forward = this.forwardKey(item.type);
      const missing: UpsertResult["skippedEdges"][number]["missing"] = [];
      for (const [end, role] of [[from, "source"], [to, "target"]] as const) {
        const k = vkey(end.type, end.id);
        if (exists(k)) continue;
        const must = o.vertexMustExist || o.updateVertexOnly || (role === "source" ? o.sourceVertexMustExist : o.targetVertexMustExist);
        if (this.retired.has(k) || must) missing.push({ type: end.type, id: idOf(end.type, end.id, this.schema), retired: this.retired.has(k) });
      }
      if (missing.length > 0) {
        result.skippedEdges.push({ index, type: item.type, missing });
        return;
      }
      const identity = this.identity(forward, vkey(from.type, from.id), vkey(to.type, to.id), item.attributes ?? []);
      if ((item.attributes ?? []).some((w) => isNeedy(w.op)) && !this.edges.has(identity) && !batchEdges.has(identity)) throw new Missing();
      created.add(vkey(from.type, from.id));
      created.add(vkey(to.type, to.id));
      batchEdges.add(identity);
      edgePlans.push(index);
    });
    for (const index of vertexPlans) {
      const item = batch.vertices![index];
      const k = vkey(item.type, item.id);
      const existed = this.vertices.has(k);
      if (!existed) this.createVertex(k);
      this.write(this.vertices.get(k)!, this.vertexAttrDefs(item.type), item.attributes ?? [], existed, []);
      result.acceptedVertices++;
    }
    for (const index of edgePlans) {
      const item = batch.edges![index];
      const def = this.edgeDef(item.type);
      const [from, to] = def.reverseOf ? [item.to, item.from] : [item.from, item.to];
      const forward = this.forwardKey(item.type);
      for (const end of [from, to]) {
        const k = vkey(end.type, end.id);
        if (!this.vertices.has(k)) {
          this.createVertex(k);
          result.createdEndpointVertices++;
        }
      }
      const fk = vkey(from.type, from.id);
      const tk = vkey(to.type, to.id);
      const identity = this.identity(forward, fk, tk, item.attributes ?? []);
      const fdef = this.edgeDef(forward);
      let edge = this.edges.get(identity);
      const existed = edge !== undefined;
      if (!edge) {
        edge = { type: forward, from: fk, to: tk, attrs: defaults(fdef.attributes) };
        this.edges.set(identity, edge);
      }
      this.write(edge.attrs, fdef.attributes, item.attributes ?? [], existed, existed ? fdef.discriminator : []);
      result.acceptedEdges++;
    }
    return result;
  }

  deleteVertices(type: string, ids: (string | number)[], permanent: boolean): Record<string, number> {
    const keys = new Set(ids.map((id) => vkey(type, id)).filter((k) => this.vertices.has(k)));
    return this.removeVertices(keys, permanent);
  }

  deleteAll(type: string, permanent: boolean): Record<string, number> {
    return this.removeVertices(new Set([...this.vertices.keys()].filter((k) => typeOf(k) === type)), permanent);
  }

  deleteEdges(selectors: EdgeSelector[]): Record<string, number> {
    const counts: Record<string, number> = {};
    const chosen = new Set<string>();
    for (const sel of selectors) {
      const from = vkey(sel.from.type, sel.from.id as string);
      if (!this.vertices.has(from)) continue;
      const to = sel.to ? vkey(sel.to.type, sel.to.id as string) : undefined;
      for (const type of sel.type ? [sel.type] : this.edgeOrder) {
        for (const [identity, e] of this.edges) {
          if (chosen.has(identity)) continue;
          const other = this.otherEnd(type, e, from);
          if (other === undefined || (to && other !== to) || (sel.toType && typeOf(other) !== sel.toType)) continue;
          chosen.add(identity);
          counts[type] = (counts[type] ?? 0) + 1;
        }
      }
    }
    for (const identity of chosen) this.edges.delete(identity);
    return counts;
  }

  dump(): StoreDump {
    const out: StoreDump = { vertices: {}, edges: {} };
    for (const t of this.schema.vertexTypes) out.vertices[t.key] = {};
    for (const [k, attrs] of this.vertices) {
      out.vertices[typeOf(k)][idText(k)] = Object.fromEntries([...attrs].map(([n, v]) => [n, show(v)]));
    }
    for (const e of this.edges.values()) {
      const def = this.edgeDef(e.type);
      const attrs = def.attributes.map((a) => `${a.name}=${show(e.attrs.get(a.name))}`).join(",");
      const line = (a: VKey, b: VKey) => `${typeOf(a)}:${idText(a)} -> ${typeOf(b)}:${idText(b)} {${attrs}}`;
      (out.edges[e.type] ??= []).push(line(e.from, e.to));
      if (!def.directed && e.from !== e.to) out.edges[e.type].push(line(e.to, e.from));
      const reverse = this.schema.edgeTypes.find((r) => r.reverseOf === def.name);
      if (reverse) (out.edges[reverse.key] ??= []).push(line(e.to, e.from));
    }
    for (const list of Object.values(out.edges)) list.sort();
    return out;
  }

  /** The end of `e` seen from `v` when `type` lists e among v's edges, else undefined. */
  private otherEnd(type: string, e: ModelEdge, v: VKey): VKey | undefined {
    const def = this.edgeDef(type);
    const forward = this.forwardKey(type);
    if (e.type !== forward) return undefined;
    if (def.reverseOf) return e.to === v ? e.from : undefined;
    if (def.directed) return e.from === v ? e.to : undefined;
    return e.from === v ? e.to : e.to === v ? e.from : undefined;
  }

  private removeVertices(keys: Set<VKey>, permanent: boolean): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [identity, e] of this.edges) {
      if (!keys.has(e.from) && !keys.has(e.to)) continue;
      counts[e.type] = (counts[e.type] ?? 0) + 1;
      this.edges.delete(identity);
    }
    for (const k of keys) {
      this.vertices.delete(k);
      if (permanent) this.retired.add(k);
    }
    return counts;
  }

  private createVertex(k: VKey): void {
    this.vertices.set(k, defaults(this.vertexAttrDefs(typeOf(k))));
  }

  private write(attrs: Attrs, defs: EdgeType["attributes"], writes: { name: string; value: unknown; op?: UpsertOp }[], existed: boolean, fixed: string[]): void {
    for (const w of writes) {
      const def = defs.find((d) => d.name === w.name);
      if (!def || fixed.includes(w.name)) continue;
      const op = w.op ?? "=";
      if (existed && op === "~") continue;
      const given = canonical(def.type.kind === "set" ? "SET" : (def.type as { name: string }).name, w.value);
      attrs.set(w.name, existed ? combine(op, attrs.get(w.name)!, given) : given);
    }
  }

  private identity(forward: string, from: VKey, to: VKey, writes: { name: string; value: unknown }[]): string {
    const def = this.edgeDef(forward);
    const [a, b] = !def.directed && to < from ? [to, from] : [from, to];
    const disc = def.discriminator.map((d) => String(writes.filter((w) => w.name === d).pop()?.value ?? 0));
    return `${forward}|${a}|${b}|${disc.join("|")}`;
  }

  private vertexAttrDefs(type: string) {
    return this.schema.vertexTypes.find((t) => t.key === type)!.attributes;
  }

  private edgeDef(type: string): EdgeType {
    return this.schema.edgeTypes.find((t) => t.key === type)!;
  }

  private forwardKey(type: string): string {
    const def = this.edgeDef(type);
    return def.reverseOf ? this.schema.edgeTypes.find((t) => t.name === def.reverseOf)!.key : type;
  }
}

class Missing extends Error {}

/** Run an upsert on a copy, so a rejected batch leaves the model as it was. */
export function modelUpsert(model: ReferenceModel, batch: UpsertBatch, o: UpsertOptions): { model: ReferenceModel; result: UpsertResult | "OP_ON_MISSING_ITEM" } {
  const copy = model.clone();
  try {
    return { model: copy, result: copy.upsert(batch, o) };
  } catch (e) {
    if (e instanceof Missing) return { model, result: "OP_ON_MISSING_ITEM" };
    throw e;
  }
}

function vkey(type: string, id: unknown): VKey {
  return `${type}|${String(id)}`;
}

function typeOf(k: VKey): string {
  return k.slice(0, k.indexOf("|"));
}

function idText(k: VKey): string {
  return k.slice(k.indexOf("|") + 1);
}

function idOf(type: string, id: unknown, schema: DatabaseSchema): string | bigint {
  const t = schema.vertexTypes.find((v) => v.key === type)!;
  return t.primaryId.type === "INT" ? BigInt(id as number) : String(id);
}

function isNeedy(op: UpsertOp | undefined): boolean {
  return op !== undefined && op !== "=" && op !== "~";
}

function defaults(defs: EdgeType["attributes"]): Attrs {
  return new Map(defs.map((d) => [d.name, d.default !== undefined ? canonical((d.type as { name: string }).name, d.default) : zero(d.type.kind === "set" ? "SET" : (d.type as { name: string }).name)]));
}

function zero(type: string): AttrValue {
  return ({ INT: 0n, DOUBLE: 0, STRING: "", BOOL: false, SET: [] } as Record<string, AttrValue>)[type];
}

function canonical(type: string, v: unknown): AttrValue {
  switch (type) {
    case "INT":
      return BigInt(v as number);
    case "DOUBLE":
      return Number(v);
    case "SET":
      return [...new Set(v as string[])];
    default:
      return v as AttrValue;
  }
}

function combine(op: UpsertOp, a: AttrValue, b: AttrValue): AttrValue {
  if (op === "=") return b;
  if (Array.isArray(a)) return [...new Set([...(a as string[]), ...(b as string[])])];
  if (typeof a === "bigint") {
    const x = b as bigint;
    const r = op === "+" ? a + x : op === "&" ? a & x : op === "|" ? a | x : op === ">" ? (a > x ? a : x) : a < x ? a : x;
    return BigInt.asIntN(64, r);
  }
  if (typeof a === "boolean") return op === "&" ? a && (b as boolean) : op === "<" ? a && (b as boolean) : a || (b as boolean);
  if (typeof a === "string") return op === "+" ? a + b : op === ">" ? (a > (b as string) ? a : b) : a < (b as string) ? a : b;
  const x = b as number;
  const y = a as number;
  return op === "+" ? y + x : op === ">" ? Math.max(y, x) : Math.min(y, x);
}

/** Keep values of attributes that stay (same name and type); new ones get their default. */
function reconcile(attrs: Attrs, next: EdgeType["attributes"], before: EdgeType["attributes"]): void {
  const kept = new Map(attrs);
  attrs.clear();
  for (const d of next) {
    const old = before.find((b) => b.name === d.name);
    const same = old && JSON.stringify(old.type) === JSON.stringify(d.type);
    attrs.set(d.name, same && kept.has(d.name) ? kept.get(d.name)! : defaults([d]).get(d.name)!);
  }
}
