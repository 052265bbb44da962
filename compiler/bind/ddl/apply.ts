// Applying top-level DDL to a DatabaseSchema: pure functions from (schema, command) to a
// new schema plus what changed, with diagnostics. On any error the result carries the old
// schema unchanged. The server's catalog and `gsqlc check --schema` both call `applyDdl`.
import { emptySchema, type DatabaseSchema, type GraphSchema } from "../../../runtime-wasm/schema/types.js";
import { DiagnosticLog } from "../../diagnostics/index.js";
import type { DdlCommand, DdlCreateGraph, DdlDrop, DdlName } from "./commands.js";
import { createEdgeTypes, createTupleType, createVertexType, nameInUse } from "./create-types.js";

/** What a DDL command did, for the shell's success lines and the catalog's bookkeeping. */
export interface DdlEffect {
  createdVertexTypes: string[];
  createdEdgeTypes: string[];
  createdReverseEdgeTypes: string[];
  createdTuples: string[];
  createdGraphs: string[];
  droppedVertexTypes: string[];
  droppedEdgeTypes: string[];
  droppedTuples: string[];
  droppedGraphs: string[];
  /** Graphs whose schema version went up (schema-change jobs). */
  changedGraphs: string[];
  droppedAll: boolean;
}

export interface DdlResult {
  ok: boolean;
  schema: DatabaseSchema;
  effect: DdlEffect;
}

export function noEffect(): DdlEffect {
  return {
    createdVertexTypes: [], createdEdgeTypes: [], createdReverseEdgeTypes: [], createdTuples: [], createdGraphs: [],
    droppedVertexTypes: [], droppedEdgeTypes: [], droppedTuples: [], droppedGraphs: [], changedGraphs: [], droppedAll: false,
  };
}

/** Apply one top-level DDL command. Errors go to `log`; the input schema is never modified. */
export function applyDdl(schema: DatabaseSchema, cmd: DdlCommand, log: DiagnosticLog): DdlResult {
  const local = new DiagnosticLog();
  const draft = structuredClone(schema);
  const effect = noEffect();
  applyTo(draft, cmd, local, effect);
  for (const d of local.diagnostics) log.add(d);
  return local.hasErrors() ? { ok: false, schema, effect: noEffect() } : { ok: true, schema: draft, effect };
}

function applyTo(draft: DatabaseSchema, cmd: DdlCommand, log: DiagnosticLog, effect: DdlEffect): void {
  switch (cmd.kind) {
    case "createTuple": {
      const t = createTupleType(draft, cmd, log);
      if (t) {
        draft.tuples.push(t);
        effect.createdTuples.push(t.name);
      }
      return;
    }
    case "createVertex": {
      const v = createVertexType(draft, cmd, {}, log);
      if (v) {
        draft.vertexTypes.push(v);
        effect.createdVertexTypes.push(v.name);
      }
      return;
    }
    case "createEdge": {
      const es = createEdgeTypes(draft, cmd, {}, log);
      if (es) {
        draft.edgeTypes.push(...es);
        effect.createdEdgeTypes.push(es[0]!.name);
        if (es[1]) effect.createdReverseEdgeTypes.push(es[1].name);
      }
      return;
    }
    case "createGraph":
      createGraph(draft, cmd, log, effect);
      return;
    case "drop":
      dropObjects(draft, cmd, log, effect);
      return;
    case "dropAll": {
      const fresh = emptySchema();
      Object.assign(draft, fresh);
      effect.droppedAll = true;
      return;
    }
  }
}

function createGraph(draft: DatabaseSchema, cmd: DdlCreateGraph, log: DiagnosticLog, effect: DdlEffect): void {
  const name = cmd.name.name;
  let ok = true;
  if (nameInUse(draft, name, {})) {
    log.report("GSQL4001", cmd.name.range, { kind: "graph", name });
    ok = false;
  }
  const globalsV = draft.vertexTypes.filter((t) => t.graph === undefined);
  const globalsE = draft.edgeTypes.filter((t) => t.graph === undefined);
  const g: GraphSchema = { name, vertexTypes: [], edgeTypes: [], version: 0 };
  const names: DdlName[] = cmd.types === "*"
    ? [...globalsV, ...globalsE].map((t) => ({ name: t.name, range: cmd.range }))
    : cmd.types;
  for (const n of names) {
    if (globalsV.some((t) => t.name === n.name)) {
      if (!g.vertexTypes.includes(n.name)) g.vertexTypes.push(n.name);
    } else if (globalsE.some((t) => t.name === n.name)) {
      if (!g.edgeTypes.includes(n.name)) g.edgeTypes.push(n.name);
    } else {
      log.report("GSQL4006", n.range, { name: n.name });
      ok = false;
    }
  }
  // An edge comes with its reverse edge; an edge needs at least one of its pairs in the graph.
  for (const e of [...g.edgeTypes]) {
    const et = globalsE.find((t) => t.name === e)!;
    const partner = et.reverseEdge ?? et.reverseOf;
    if (partner && !g.edgeTypes.includes(partner)) g.edgeTypes.push(partner);
  }
  for (const e of g.edgeTypes) {
    const et = globalsE.find((t) => t.name === e)!;
    if (!et.pairs.some((p) => g.vertexTypes.includes(p.from) && g.vertexTypes.includes(p.to))) {
      const where = cmd.types === "*" ? cmd.range : cmd.types.find((n) => n.name === e)?.range ?? cmd.range;
      log.report("GSQL4013", where, { reason: `The edge type ${e} needs its FROM and TO vertex types in graph ${name}.` });
      ok = false;
    }
  }
  if (!ok) return;
  draft.graphs.push(g);
  effect.createdGraphs.push(name);
}

function dropObjects(draft: DatabaseSchema, cmd: DdlDrop, log: DiagnosticLog, effect: DdlEffect): void {
  for (const n of cmd.names) {
    switch (cmd.what) {
      case "vertex": dropGlobalVertex(draft, n, log, effect); break;
      case "edge": dropGlobalEdge(draft, n, log, effect); break;
      case "tuple": dropTuple(draft, n, log, effect); break;
      case "graph": dropGraph(draft, n, log, effect); break;
    }
  }
}

function graphsUsing(draft: DatabaseSchema, name: string, kind: "vertex" | "edge"): string[] {
  return draft.graphs.filter((g) => (kind === "vertex" ? g.vertexTypes : g.edgeTypes).includes(name) &&
    // A graph's own local type of that name shadows the global one.
    !(kind === "vertex" ? draft.vertexTypes : draft.edgeTypes).some((t) => t.graph === g.name && t.name === name))
    .map((g) => g.name);
}

export function dropGlobalVertex(draft: DatabaseSchema, n: DdlName, log: DiagnosticLog, effect: DdlEffect): void {
  const i = draft.vertexTypes.findIndex((t) => t.graph === undefined && t.name === n.name);
  if (i < 0) {
    log.report("GSQL5003", n.range, { kind: "vertex type", name: n.name });
    return;
  }
  const edges = draft.edgeTypes.filter((e) => e.graph === undefined && e.pairs.some((p) => p.from === n.name || p.to === n.name));
  if (edges.length > 0) {
    log.report("GSQL4009", n.range, { kind: "vertex type", name: n.name, users: `edge type ${edges.map((e) => e.name).join(", ")}` });
    return;
  }
  const graphs = graphsUsing(draft, n.name, "vertex");
  if (graphs.length > 0) {
    log.report("GSQL4009", n.range, { kind: "vertex type", name: n.name, users: `graph ${graphs.join(", ")}` });
    return;
  }
  draft.vertexTypes.splice(i, 1);
  effect.droppedVertexTypes.push(n.name);
}

export function dropGlobalEdge(draft: DatabaseSchema, n: DdlName, log: DiagnosticLog, effect: DdlEffect): void {
  const et = draft.edgeTypes.find((t) => t.graph === undefined && t.name === n.name);
  if (!et) {
    log.report("GSQL5003", n.range, { kind: "edge type", name: n.name });
    return;
  }
  const graphs = graphsUsing(draft, n.name, "edge");
  if (graphs.length > 0) {
    log.report("GSQL4009", n.range, { kind: "edge type", name: n.name, users: `graph ${graphs.join(", ")}` });
    return;
  }
  // Dropping either half of a forward/reverse pair drops both.
  const partner = et.reverseEdge ?? et.reverseOf;
  draft.edgeTypes = draft.edgeTypes.filter((t) => !(t.graph === undefined && (t.name === n.name || t.name === partner)));
  effect.droppedEdgeTypes.push(n.name);
  if (partner && !effect.droppedEdgeTypes.includes(partner)) effect.droppedEdgeTypes.push(partner);
}

function dropTuple(draft: DatabaseSchema, n: DdlName, log: DiagnosticLog, effect: DdlEffect): void {
  const i = draft.tuples.findIndex((t) => t.name === n.name);
  if (i < 0) {
    log.report("GSQL5003", n.range, { kind: "tuple", name: n.name });
    return;
  }
  const mentions = (t: import("../../../runtime-wasm/schema/types.js").AttrType): boolean =>
    t.kind === "tuple" ? t.name === n.name : t.kind === "list" || t.kind === "set" ? mentions(t.element)
      : t.kind === "map" ? mentions(t.key) || mentions(t.value) : false;
  const users = [...draft.vertexTypes, ...draft.edgeTypes].filter((t) => t.attributes.some((a) => mentions(a.type)));
  if (users.length > 0) {
    log.report("GSQL4009", n.range, { kind: "tuple", name: n.name, users: users.map((u) => u.name).join(", ") });
    return;
  }
  draft.tuples.splice(i, 1);
  effect.droppedTuples.push(n.name);
}

function dropGraph(draft: DatabaseSchema, n: DdlName, log: DiagnosticLog, effect: DdlEffect): void {
  if (!draft.graphs.some((g) => g.name === n.name)) {
    log.report("GSQL4010", n.range, { name: n.name });
    return;
  }
  draft.graphs = draft.graphs.filter((g) => g.name !== n.name);
  // The graph's local types (and their data) go with it; global types stay.
  draft.vertexTypes = draft.vertexTypes.filter((t) => t.graph !== n.name);
  draft.edgeTypes = draft.edgeTypes.filter((t) => t.graph !== n.name);
  effect.droppedGraphs.push(n.name);
}
