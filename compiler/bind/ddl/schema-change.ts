// RUN [GLOBAL] SCHEMA_CHANGE JOB: applies a job's statements to a draft schema in order.
// Atomic: if any statement fails, the old schema stays. Each changed graph's version goes
// up by 1; a global job also bumps the global schema version.
import type { DatabaseSchema, EdgeType, GraphSchema, VertexType } from "../../../runtime-wasm/schema/types.js";
import { GraphView } from "../../../runtime-wasm/schema/lookup.js";
import { DiagnosticLog } from "../../diagnostics/index.js";
import { convertDefault, resolveAttrType } from "./attributes.js";
import { dropGlobalEdge, dropGlobalVertex, noEffect, type DdlResult } from "./apply.js";
import type { DdlName, DdlSchemaChangeJob, SchemaChangeStatement } from "./commands.js";
import { createEdgeTypes, createVertexType, expandPairs, type TypeScope } from "./create-types.js";

interface JobContext {
  view(g: GraphSchema): GraphView;
  draft: DatabaseSchema;
  log: DiagnosticLog;
  /** The graph of a local job. */
  graph?: GraphSchema;
  changed: Set<string>;
}

export function applySchemaChangeJob(schema: DatabaseSchema, job: DdlSchemaChangeJob, log: DiagnosticLog): DdlResult {
  const local = new DiagnosticLog();
  const draft = structuredClone(schema);
  const ctx: JobContext = { draft, log: local, changed: new Set(), view: (g) => new GraphView(draft, g) };
  if (!job.global) {
    const g = job.graph ? draft.graphs.find((x) => x.name === job.graph!.name) : undefined;
    if (!job.graph) local.report("GSQL5004", job.range);
    else if (!g) local.report("GSQL4010", job.graph.range, { name: job.graph.name });
    ctx.graph = g;
  }
  if (!local.hasErrors()) {
    for (const s of job.statements) (job.global ? applyGlobal : applyLocal)(ctx, s);
  }
  if (!local.hasErrors() && job.global) checkGraphsComplete(ctx, job);
  for (const d of local.diagnostics) log.add(d);
  if (local.hasErrors()) return { ok: false, schema, effect: noEffect() };
  for (const g of draft.graphs) if (ctx.changed.has(g.name)) g.version += 1;
  if (job.global) draft.globalVersion += 1;
  const effect = noEffect();
  effect.changedGraphs = draft.graphs.filter((g) => ctx.changed.has(g.name)).map((g) => g.name);
  return { ok: true, schema: draft, effect };
}

// ---------------------------------------------------------------- local jobs

function applyLocal(ctx: JobContext, s: SchemaChangeStatement): void {
  const g = ctx.graph!;
  const scope: TypeScope = { graph: g };
  switch (s.kind) {
    case "addVertex": {
      const v = createVertexType(ctx.draft, s.def, scope, ctx.log);
      if (v) {
        ctx.draft.vertexTypes.push(v);
        g.vertexTypes.push(v.name);
        ctx.changed.add(g.name);
      }
      return;
    }
    case "addEdge": {
      const es = createEdgeTypes(ctx.draft, s.def, scope, ctx.log);
      if (es) {
        ctx.draft.edgeTypes.push(...es);
        g.edgeTypes.push(...es.map((e) => e.name));
        ctx.changed.add(g.name);
      }
      return;
    }
    case "dropType":
      for (const n of s.names) dropLocalType(ctx, s.what, n);
      return;
    case "addToGraph":
    case "dropFromGraph":
      ctx.log.report("GSQL4013", s.range, { reason: "TO GRAPH / FROM GRAPH belongs in a GLOBAL schema change job." });
      return;
    default:
      // ALTER reaches the graph's local types and the global types it uses (a global type
      // changes for every graph that includes it).
      alterType(ctx, s, (what, n) => {
        const t = what === "vertex" ? ctx.view(g).vertexType(n.name) : ctx.view(g).edgeType(n.name);
        if (!t) ctx.log.report("GSQL4006", n.range, { name: n.name });
        return t;
      });
  }
}

function dropLocalType(ctx: JobContext, what: "vertex" | "edge", n: DdlName): void {
  const g = ctx.graph!;
  const list: (VertexType | EdgeType)[] = what === "vertex" ? ctx.draft.vertexTypes : ctx.draft.edgeTypes;
  const t = list.find((x) => x.graph === g.name && x.name === n.name);
  if (!t) {
    const global = (what === "vertex" ? g.vertexTypes : g.edgeTypes).includes(n.name);
    if (global) ctx.log.report("GSQL4013", n.range, { reason: `${n.name} is a global type; remove it from the graph with a GLOBAL schema change job.` });
    else ctx.log.report("GSQL4006", n.range, { name: n.name });
    return;
  }
  if (what === "vertex") {
    const users = g.edgeTypes.filter((e) => edgeInGraph(ctx.draft, g, e)?.pairs.some((p) => p.from === n.name || p.to === n.name));
    if (users.length > 0) {
      ctx.log.report("GSQL4009", n.range, { kind: "vertex type", name: n.name, users: `edge type ${users.join(", ")}` });
      return;
    }
    ctx.draft.vertexTypes = ctx.draft.vertexTypes.filter((x) => x !== t);
    g.vertexTypes = g.vertexTypes.filter((x) => x !== n.name);
  } else {
    const e = t as EdgeType;
    const partner = e.reverseEdge ?? e.reverseOf;
    const gone = new Set([n.name, ...(partner ? [partner] : [])]);
    ctx.draft.edgeTypes = ctx.draft.edgeTypes.filter((x) => !(x.graph === g.name && gone.has(x.name)));
    g.edgeTypes = g.edgeTypes.filter((x) => !gone.has(x));
  }
  ctx.changed.add(g.name);
}

function edgeInGraph(schema: DatabaseSchema, g: GraphSchema, name: string): EdgeType | undefined {
  return schema.edgeTypes.find((t) => t.name === name && t.graph === g.name) ??
    schema.edgeTypes.find((t) => t.name === name && t.graph === undefined);
}

// ---------------------------------------------------------------- global jobs

function applyGlobal(ctx: JobContext, s: SchemaChangeStatement): void {
  switch (s.kind) {
    case "addVertex": {
      const v = createVertexType(ctx.draft, s.def, {}, ctx.log);
      if (v) ctx.draft.vertexTypes.push(v);
      return;
    }
    case "addEdge": {
      const es = createEdgeTypes(ctx.draft, s.def, {}, ctx.log);
      if (es) ctx.draft.edgeTypes.push(...es);
      return;
    }
    case "addToGraph":
    case "dropFromGraph": {
      const g = ctx.draft.graphs.find((x) => x.name === s.graph.name);
      if (!g) {
        ctx.log.report("GSQL4010", s.graph.range, { name: s.graph.name });
        return;
      }
      for (const n of s.names) changeMembership(ctx, g, s.kind === "addToGraph", s.what, n);
      return;
    }
    case "dropType": {
      const effect = noEffect();
      for (const n of s.names) (s.what === "vertex" ? dropGlobalVertex : dropGlobalEdge)(ctx.draft, n, ctx.log, effect);
      return;
    }
    default:
      alterType(ctx, s, (what, n) => {
        const list: (VertexType | EdgeType)[] = what === "vertex" ? ctx.draft.vertexTypes : ctx.draft.edgeTypes;
        const t = list.find((x) => x.graph === undefined && x.name === n.name);
        if (!t) ctx.log.report("GSQL4006", n.range, { name: n.name });
        return t;
      });
  }
}

function changeMembership(ctx: JobContext, g: GraphSchema, add: boolean, what: "vertex" | "edge", n: DdlName): void {
  const globals: (VertexType | EdgeType)[] = what === "vertex" ? ctx.draft.vertexTypes : ctx.draft.edgeTypes;
  const t = globals.find((x) => x.graph === undefined && x.name === n.name);
  if (!t) {
    ctx.log.report("GSQL4006", n.range, { name: n.name });
    return;
  }
  const members = what === "vertex" ? g.vertexTypes : g.edgeTypes;
  const partner = what === "edge" ? ((t as EdgeType).reverseEdge ?? (t as EdgeType).reverseOf) : undefined;
  const names = partner ? [n.name, partner] : [n.name];
  if (add) {
    if (members.includes(n.name)) {
      ctx.log.report("GSQL4001", n.range, { kind: what, name: n.name });
      return;
    }
    members.push(...names.filter((x) => !members.includes(x)));
  } else {
    if (!members.includes(n.name)) {
      ctx.log.report("GSQL4013", n.range, { reason: `The ${what} type ${n.name} is not in graph ${g.name}.` });
      return;
    }
    const keep = members.filter((x) => !names.includes(x));
    if (what === "vertex") g.vertexTypes = keep;
    else g.edgeTypes = keep;
  }
  ctx.changed.add(g.name);
}

/** After a global job, every edge of a changed graph still needs one FROM/TO pair inside it. */
function checkGraphsComplete(ctx: JobContext, job: DdlSchemaChangeJob): void {
  for (const g of ctx.draft.graphs) {
    if (!ctx.changed.has(g.name)) continue;
    for (const e of g.edgeTypes) {
      const et = edgeInGraph(ctx.draft, g, e);
      if (et && !et.pairs.some((p) => g.vertexTypes.includes(p.from) && g.vertexTypes.includes(p.to))) {
        ctx.log.report("GSQL4013", job.range, { reason: `The edge type ${e} needs its FROM and TO vertex types in graph ${g.name}.` });
      }
    }
  }
}

// ---------------------------------------------------------------- ALTER (both kinds)

type AlterStatement = Extract<SchemaChangeStatement, { kind: "addAttributes" | "dropAttributes" | "addPairs" | "dropPairs" | "addIndex" | "dropIndex" }>;

function alterType(ctx: JobContext, s: AlterStatement, find: (what: "vertex" | "edge", n: DdlName) => VertexType | EdgeType | undefined): void {
  const what = s.kind === "addAttributes" || s.kind === "dropAttributes" ? s.what : s.kind === "addPairs" || s.kind === "dropPairs" ? "edge" : "vertex";
  const t = find(what, s.typeName);
  if (!t) return;
  // An edge and its reverse share attributes and (swapped) pairs: change both.
  const partnerName = what === "edge" ? ((t as EdgeType).reverseEdge ?? (t as EdgeType).reverseOf) : undefined;
  const partner = partnerName ? ctx.draft.edgeTypes.find((x) => x.name === partnerName && x.graph === t.graph) : undefined;
  const scope: TypeScope = ctx.graph ? { graph: ctx.graph } : {};
  switch (s.kind) {
    case "addAttributes": {
      for (const a of s.attributes) {
        if (t.attributes.some((x) => x.name === a.name) || isKeyName(t, a.name)) {
          ctx.log.report("GSQL4003", a.range, { name: a.name, owner: `${what} ${t.name}` });
          continue;
        }
        const type = resolveAttrType(a.type, "attribute", ctx.draft, ctx.log);
        if (!type) continue;
        const def: (typeof t.attributes)[number] = { name: a.name, type };
        if (a.default) {
          const v = convertDefault(a, type, ctx.log);
          if (v === undefined) continue;
          def.default = v;
        }
        t.attributes.push(def);
        partner?.attributes.push(structuredClone(def));
      }
      break;
    }
    case "dropAttributes":
      for (const n of s.names) {
        if (isKeyName(t, n.name) || (what === "edge" && (t as EdgeType).discriminator.includes(n.name))) {
          ctx.log.report("GSQL4008", n.range, { what: what === "edge" ? "Discriminators" : "Primary keys", name: n.name, owner: `${what} ${t.name}` });
          continue;
        }
        if (!t.attributes.some((x) => x.name === n.name)) {
          ctx.log.report("GSQL4012", n.range, { name: n.name, owner: `${what} ${t.name}` });
          continue;
        }
        t.attributes = t.attributes.filter((x) => x.name !== n.name);
        if (partner) partner.attributes = partner.attributes.filter((x) => x.name !== n.name);
      }
      break;
    case "addPairs": {
      const pairs = expandPairs(s.pairs, ctx.draft, scope, ctx.log);
      const e = t as EdgeType;
      for (const p of pairs ?? []) {
        if (!e.pairs.some((x) => x.from === p.from && x.to === p.to)) e.pairs.push(p);
        if (partner && !partner.pairs.some((x) => x.from === p.to && x.to === p.from)) partner.pairs.push({ from: p.to, to: p.from });
      }
      break;
    }
    case "dropPairs": {
      const pairs = expandPairs(s.pairs, ctx.draft, scope, ctx.log) ?? [];
      const e = t as EdgeType;
      for (const p of pairs) {
        if (!e.pairs.some((x) => x.from === p.from && x.to === p.to)) {
          ctx.log.report("GSQL4013", s.range, { reason: `The edge type ${e.name} has no pair (FROM ${p.from}, TO ${p.to}).` });
          continue;
        }
        e.pairs = e.pairs.filter((x) => !(x.from === p.from && x.to === p.to));
        if (partner) partner.pairs = partner.pairs.filter((x) => !(x.from === p.to && x.to === p.from));
      }
      if (e.pairs.length === 0) ctx.log.report("GSQL4013", s.range, { reason: `The edge type ${e.name} would have no FROM/TO pair left.` });
      break;
    }
    case "addIndex": {
      const attr = t.attributes.find((x) => x.name === s.attribute.name);
      if (!attr) ctx.log.report("GSQL4012", s.attribute.range, { name: s.attribute.name, owner: `vertex ${t.name}` });
      else if (attr.type.kind !== "scalar" || !["STRING", "UINT", "INT", "DATETIME"].includes(attr.type.name)) {
        ctx.log.report("GSQL4007", s.attribute.range, { use: "an index", type: "only STRING, UINT, INT or DATETIME attributes can be indexed" });
      }
      break;
    }
    case "dropIndex":
      break;
  }
  for (const g of ctx.draft.graphs) {
    if (t.graph === undefined ? (what === "vertex" ? g.vertexTypes : g.edgeTypes).includes(t.name) && !shadowed(ctx.draft, g, t) : g.name === t.graph) {
      ctx.changed.add(g.name);
    }
  }
}

function shadowed(schema: DatabaseSchema, g: GraphSchema, t: VertexType | EdgeType): boolean {
  return [...schema.vertexTypes, ...schema.edgeTypes].some((x) => x.graph === g.name && x.name === t.name && x !== t);
}

function isKeyName(t: VertexType | EdgeType, name: string): boolean {
  if (!("primaryId" in t)) return false;
  if (t.compositeKey?.includes(name)) return true;
  return t.primaryIdAsAttribute && t.primaryId.name === name;
}
