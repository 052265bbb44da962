// CREATE VERTEX / CREATE EDGE / TYPEDEF TUPLE against a draft schema: validate, then add
// the type. Shared by top-level DDL (global types) and schema-change jobs (local types,
// `scope.graph` set). Every problem is logged; nothing is added for a definition with errors.
import type {
  AttributeDef, DatabaseSchema, EdgeType, GraphSchema, PrimaryIdType, TupleType, VertexType,
} from "../../../runtime-wasm/schema/types.js";
import type { DiagnosticLog, SourceRange } from "../../diagnostics/index.js";
import { convertDefault, resolveAttrType } from "./attributes.js";
import type { DdlAttribute, DdlCreateEdge, DdlCreateTuple, DdlCreateVertex, DdlEdgePair } from "./commands.js";

/** Where a type is created: global (no graph) or local to one graph. */
export interface TypeScope {
  graph?: GraphSchema;
}

/** Global names share one namespace; a local name must not clash with what its graph sees. */
export function nameInUse(schema: DatabaseSchema, name: string, scope: TypeScope): boolean {
  if (schema.tuples.some((t) => t.name === name)) return true;
  if (scope.graph) {
    const g = scope.graph;
    return g.vertexTypes.includes(name) || g.edgeTypes.includes(name) ||
      schema.vertexTypes.some((t) => t.graph === g.name && t.name === name) ||
      schema.edgeTypes.some((t) => t.graph === g.name && t.name === name);
  }
  return schema.vertexTypes.some((t) => t.graph === undefined && t.name === name) ||
    schema.edgeTypes.some((t) => t.graph === undefined && t.name === name) ||
    schema.graphs.some((g) => g.name === name);
}

function typeKey(name: string, scope: TypeScope): string {
  return scope.graph ? `${scope.graph.name}/${name}` : name;
}

/** Attributes of a vertex or edge: resolved types, converted defaults, no duplicates. */
function resolveAttributes(attrs: DdlAttribute[], owner: string, taken: Set<string>, schema: DatabaseSchema,
  log: DiagnosticLog, use: "attribute" | "discriminator" = "attribute"): AttributeDef[] | undefined {
  const out: AttributeDef[] = [];
  let ok = true;
  for (const a of attrs) {
    if (taken.has(a.name)) {
      log.report("GSQL4003", a.range, { name: a.name, owner });
      ok = false;
      continue;
    }
    taken.add(a.name);
    const type = resolveAttrType(a.type, use, schema, log);
    if (!type) {
      ok = false;
      continue;
    }
    const def: AttributeDef = { name: a.name, type };
    if (a.default) {
      const v = convertDefault(a, type, log);
      if (v === undefined) ok = false;
      else def.default = v;
    }
    out.push(def);
  }
  return ok ? out : undefined;
}

function optionValue(def: { options: { name: string; value: string }[] }, name: string): string | undefined {
  return def.options.find((o) => o.name.toUpperCase() === name)?.value;
}

function checkOptions(def: { options: { name: string; value: string; range: SourceRange }[] },
  allowed: string[], log: DiagnosticLog): boolean {
  let ok = true;
  for (const o of def.options) {
    if (!allowed.includes(o.name.toUpperCase())) {
      log.report("GSQL4011", o.range, { name: o.name });
      ok = false;
    }
  }
  return ok;
}

export function createVertexType(schema: DatabaseSchema, def: DdlCreateVertex, scope: TypeScope, log: DiagnosticLog): VertexType | undefined {
  const name = def.name.name;
  let ok = true;
  if (nameInUse(schema, name, scope)) {
    log.report("GSQL4001", def.name.range, { kind: "vertex", name });
    ok = false;
  }
  ok = checkOptions(def, ["STATS", "PRIMARY_ID_AS_ATTRIBUTE"], log) && ok;
  const stats = (optionValue(def, "STATS") ?? "OUTDEGREE_BY_EDGETYPE").toUpperCase();
  const statsOption = def.options.find((o) => o.name.toUpperCase() === "STATS");
  if (statsOption && !["OUTDEGREE_BY_EDGETYPE", "NONE"].includes(stats)) {
    log.report("GSQL4007", statsOption.range, { use: "STATS", type: statsOption.value });
    ok = false;
  }
  const asAttrText = optionValue(def, "PRIMARY_ID_AS_ATTRIBUTE");
  const asAttrOption = def.options.find((o) => o.name.toUpperCase() === "PRIMARY_ID_AS_ATTRIBUTE");
  if (asAttrOption && !["true", "false"].includes(asAttrText!.toLowerCase())) {
    log.report("GSQL4007", asAttrOption.range, { use: "PRIMARY_ID_AS_ATTRIBUTE", type: asAttrOption.value });
    ok = false;
  }
  let primaryIdAsAttribute = asAttrText?.toLowerCase() === "true";

  const taken = new Set<string>();
  let primaryId: VertexType["primaryId"] | undefined;
  let compositeKey: string[] | undefined;
  const keyAttrs = def.attributes.filter((a) => a.primaryKey);
  if (def.primaryId) {
    const t = resolveAttrType(def.primaryId.type, "primaryId", schema, log);
    if (t?.kind === "scalar") primaryId = { name: def.primaryId.name, type: t.name as PrimaryIdType };
    else ok = false;
    // `PRIMARY_ID name STRING, name STRING` is legal; with primary_id_as_attribute the id
    // already is the attribute `name`, so a second one clashes.
    if (primaryIdAsAttribute) taken.add(def.primaryId.name);
  } else if (keyAttrs.length === 1 && !def.compositeKey) {
    const k = keyAttrs[0]!;
    const t = resolveAttrType(k.type, "primaryId", schema, log);
    if (t?.kind === "scalar" && t.name !== "DATETIME") primaryId = { name: k.name, type: t.name as PrimaryIdType };
    else {
      if (t) log.report("GSQL4007", k.type.range, { use: "a PRIMARY KEY", type: t.kind === "scalar" ? t.name : "a collection" });
      ok = false;
    }
    primaryIdAsAttribute = true;
    taken.add(k.name);
  } else if (def.compositeKey && keyAttrs.length === 0) {
    compositeKey = def.compositeKey.names.map((n) => n.name);
    for (const n of def.compositeKey.names) {
      const attr = def.attributes.find((a) => a.name === n.name);
      if (!attr) {
        log.report("GSQL4012", n.range, { name: n.name, owner: name });
        ok = false;
      } else if (attr.type.kind !== "scalar") {
        log.report("GSQL4007", attr.type.range, { use: "a PRIMARY KEY", type: "a collection" });
        ok = false;
      }
    }
    primaryId = { name: compositeKey.join(","), type: "STRING" };
  } else {
    log.report("GSQL4013", def.range, { reason: `The vertex type ${name} needs exactly one of PRIMARY_ID, an attribute marked PRIMARY KEY, or PRIMARY KEY (...).` });
    ok = false;
  }
  const attrs = resolveAttributes(def.attributes.filter((a) => !a.primaryKey), `vertex ${name}`, taken, schema, log);
  if (!ok || !attrs || !primaryId) return undefined;
  const vt: VertexType = { key: typeKey(name, scope), name, primaryId, primaryIdAsAttribute, attributes: attrs, stats };
  if (scope.graph) vt.graph = scope.graph.name;
  if (compositeKey) vt.compositeKey = compositeKey;
  return vt;
}

/** Vertex type names a pair may use: `*` expands to the types existing now in this scope. */
export function visibleVertexNames(schema: DatabaseSchema, scope: TypeScope): string[] {
  if (scope.graph) return [...scope.graph.vertexTypes];
  return schema.vertexTypes.filter((t) => t.graph === undefined).map((t) => t.name);
}

/** FROM/TO pairs with `*` and `FROM A|B` expanded to their cross product; undefined after an unknown type. */
export function expandPairs(pairs: DdlEdgePair[], schema: DatabaseSchema, scope: TypeScope, log: DiagnosticLog): { from: string; to: string }[] | undefined {
  const visible = visibleVertexNames(schema, scope);
  const out: { from: string; to: string }[] = [];
  let ok = true;
  const expand = (names: { name: string; range: SourceRange }[]) => names.flatMap((n) => {
    if (n.name === "*") return visible;
    if (!visible.includes(n.name)) {
      log.report("GSQL4002", n.range, { name: n.name });
      ok = false;
      return [];
    }
    return [n.name];
  });
  for (const p of pairs) {
    const froms = expand(p.from);
    const tos = expand(p.to);
    for (const from of froms) for (const to of tos) {
      if (!out.some((x) => x.from === from && x.to === to)) out.push({ from, to });
    }
  }
  return ok ? out : undefined;
}

/** The edge type and, WITH REVERSE_EDGE, its reverse; undefined after an error. */
export function createEdgeTypes(schema: DatabaseSchema, def: DdlCreateEdge, scope: TypeScope, log: DiagnosticLog): EdgeType[] | undefined {
  const name = def.name.name;
  let ok = true;
  if (nameInUse(schema, name, scope)) {
    log.report("GSQL4001", def.name.range, { kind: "edge", name });
    ok = false;
  }
  ok = checkOptions(def, ["REVERSE_EDGE"], log) && ok;
  const reverseOption = def.options.find((o) => o.name.toUpperCase() === "REVERSE_EDGE");
  const reverse = reverseOption?.value;
  if (reverseOption && !def.directed) {
    log.report("GSQL4005", reverseOption.range, { name });
    ok = false;
  } else if (reverse !== undefined && (reverse === name || nameInUse(schema, reverse, scope))) {
    log.report("GSQL4001", reverseOption!.range, { kind: "edge", name: reverse });
    ok = false;
  }
  const pairs = expandPairs(def.pairs, schema, scope, log);
  const taken = new Set<string>();
  const disc = resolveAttributes(def.discriminator, `edge ${name}`, taken, schema, log, "discriminator");
  const attrs = resolveAttributes(def.attributes, `edge ${name}`, taken, schema, log);
  if (!ok || !pairs || !disc || !attrs) return undefined;
  const forward: EdgeType = {
    key: typeKey(name, scope), name, directed: def.directed, pairs,
    discriminator: disc.map((a) => a.name), attributes: [...disc, ...attrs],
  };
  if (scope.graph) forward.graph = scope.graph.name;
  if (reverse === undefined) return [forward];
  forward.reverseEdge = reverse;
  const back: EdgeType = {
    key: typeKey(reverse, scope), name: reverse, directed: true,
    pairs: pairs.map((p) => ({ from: p.to, to: p.from })),
    discriminator: [...forward.discriminator], attributes: structuredClone(forward.attributes), reverseOf: name,
  };
  if (scope.graph) back.graph = scope.graph.name;
  return [forward, back];
}

export function createTupleType(schema: DatabaseSchema, def: DdlCreateTuple, log: DiagnosticLog): TupleType | undefined {
  const name = def.name.name;
  let ok = true;
  if (nameInUse(schema, name, {})) {
    log.report("GSQL4001", def.name.range, { kind: "tuple", name });
    ok = false;
  }
  const fields: TupleType["fields"] = [];
  const seen = new Set<string>();
  for (const f of def.fields) {
    if (seen.has(f.name)) {
      log.report("GSQL4003", f.range, { name: f.name, owner: `tuple ${name}` });
      ok = false;
      continue;
    }
    seen.add(f.name);
    const t = resolveAttrType(f.type, "tupleField", schema, log);
    if (!t) {
      ok = false;
      continue;
    }
    const field: TupleType["fields"][number] = { name: f.name, type: t };
    if (t.kind === "scalar" && t.size !== undefined) field.size = t.size;
    fields.push(field);
  }
  return ok ? { name, fields } : undefined;
}
