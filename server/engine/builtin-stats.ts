// The built-in statistics functions of POST /builtins/{g}: stat_vertex_number,
// stat_edge_number, stat_vertex_attr and stat_edge_attr. Numeric attributes report MAX, MIN
// and AVG (all 0 when there is nothing to measure); BOOL attributes report TRUE and FALSE
// counts. Edge statistics look at edges from their sources as reads list them, so an
// undirected edge counts once from each end.
//
// stat_vertex_attr answers in interface.md's shape, [{vertexName, attributeStat:
// [{vattrName, MAX, MIN, AVG}]}], under both output APIs.
import type { AttrType, AttributeDef, EdgeType, VertexType } from "../../runtime-wasm/schema/types.js";
import type { AttrValue } from "../../runtime-wasm/schema/types.js";
import type { Snapshot } from "../../runtime-wasm/store/index.js";
import { RawJson, formatDouble, formatFloat, type JsonOut } from "../../runtime-wasm/values/index.js";
import type { Deadline } from "./deadline.js";
import { invalidRequest } from "./engine-error.js";
import type { GraphHandle } from "./engine.js";
import { edgePairs, edgeTypeOf, vertexTypeOf } from "./graph-types.js";
import { clip } from "./clip-text.js";

export interface BuiltinRequest {
  function: string;
  type: string;
  fromType: string;
  toType: string;
}

export const BUILTIN_FUNCTIONS = ["stat_vertex_number", "stat_edge_number", "stat_vertex_attr", "stat_edge_attr"] as const;

export function runBuiltin(snapshot: Snapshot, graph: GraphHandle, req: BuiltinRequest, deadline: Deadline): JsonOut[] {
  switch (req.function) {
    case "stat_vertex_number":
      return vertexTypes(graph, req.type).map((t) => ({ v_type: t.name, count: snapshot.vertexCount(t.key) }));
    case "stat_edge_number": {
      const [from, to] = endpointTypes(graph, req);
      return edgeTypes(graph, req.type).map((t) => ({
        e_type: t.name,
        count: snapshot.edgeCount(t.key, { fromType: from?.key, toType: to?.key }),
      }));
    }
    case "stat_vertex_attr":
      return vertexTypes(graph, req.type).map((t) => ({ vertexName: t.name, attributeStat: vertexAttrStats(snapshot, t, deadline) }));
    case "stat_edge_attr": {
      const [from, to] = endpointTypes(graph, req);
      return edgeTypes(graph, req.type).map((t) => ({ e_type: t.name, attributes: edgeAttrStats(snapshot, graph, t, from, to, deadline) }));
    }
    default:
      throw invalidRequest(`Unknown built-in function '${clip(req.function)}': use one of ${BUILTIN_FUNCTIONS.join(", ")}.`);
  }
}

function vertexTypes(graph: GraphHandle, name: string): VertexType[] {
  return name === "*" ? [...graph.view.vertexByName.values()] : [vertexTypeOf(graph, name)];
}

function edgeTypes(graph: GraphHandle, name: string): EdgeType[] {
  return name === "*" ? [...graph.view.edgeByName.values()] : [edgeTypeOf(graph, name)];
}

function endpointTypes(graph: GraphHandle, req: BuiltinRequest): [VertexType | undefined, VertexType | undefined] {
  return [req.fromType === "*" ? undefined : vertexTypeOf(graph, req.fromType), req.toType === "*" ? undefined : vertexTypeOf(graph, req.toType)];
}

/** Running statistics of one attribute. */
class Accumulator {
  count = 0;
  trues = 0;
  sum = 0;
  max: AttrValue | undefined;
  min: AttrValue | undefined;

  constructor(readonly def: AttributeDef) {}

  add(v: AttrValue): void {
    this.count++;
    if (typeof v === "boolean") {
      if (v) this.trues++;
      return;
    }
    this.sum += Number(v);
    if (this.max === undefined || (v as number) > (this.max as number)) this.max = v;
    if (this.min === undefined || (v as number) < (this.min as number)) this.min = v;
  }

  result(): JsonOut {
    if (isBool(this.def.type)) return { TRUE: this.trues, FALSE: this.count - this.trues };
    const shown = (v: AttrValue | undefined): JsonOut => {
      if (v === undefined) return 0;
      if (typeof v === "bigint") return v;
      const name = this.def.type.kind === "scalar" ? this.def.type.name : "DOUBLE";
      return new RawJson(name === "FLOAT" ? formatFloat(v as number) : formatDouble(v as number));
    };
    return { MAX: shown(this.max), MIN: shown(this.min), AVG: new RawJson(formatDouble(this.count ? this.sum / this.count : 0)) };
  }
}

const NUMERIC = new Set(["INT", "UINT", "FLOAT", "DOUBLE"]);
const isBool = (t: AttrType) => t.kind === "scalar" && t.name === "BOOL";
const measurable = (d: AttributeDef) => d.type.kind === "scalar" && (NUMERIC.has(d.type.name) || d.type.name === "BOOL");

function vertexAttrStats(snapshot: Snapshot, t: VertexType, deadline: Deadline): JsonOut[] {
  const accs = t.attributes.filter(measurable).map((d) => new Accumulator(d));
  for (const acc of accs) {
    const read = snapshot.attributeReader(t.key, acc.def.name) ?? ((vid: number) => snapshot.attribute(vid, acc.def.name)!);
    for (const vid of snapshot.vertices(t.key)) {
      deadline.tick();
      const v = read(vid);
      if (v !== undefined) acc.add(v);
    }
  }
  return accs.map((acc) => ({ vattrName: acc.def.name, ...(acc.result() as { [k: string]: JsonOut }) }));
}

function edgeAttrStats(snapshot: Snapshot, graph: GraphHandle, t: EdgeType, from: VertexType | undefined, to: VertexType | undefined, deadline: Deadline): JsonOut {
  const accs = t.attributes.filter(measurable).map((d) => new Accumulator(d));
  const out: { [name: string]: JsonOut } = {};
  if (accs.length === 0) return out;
  for (const source of sourceTypes(graph, t, from)) {
    for (const vid of snapshot.vertices(source.key)) {
      for (const e of snapshot.edges(vid, { type: t.key, toType: to?.key })) {
        deadline.tick();
        for (const acc of accs) {
          const v = snapshot.edgeAttribute(e, acc.def.name);
          if (v !== undefined) acc.add(v);
        }
      }
    }
  }
  for (const acc of accs) out[acc.def.name] = acc.result();
  return out;
}

/** Vertex types edges of `t` can be read from (either end for undirected types). */
function sourceTypes(graph: GraphHandle, t: EdgeType, only: VertexType | undefined): VertexType[] {
  const names = new Set<string>();
  for (const p of edgePairs(graph, t)) {
    names.add(p.from);
    if (!t.directed) names.add(p.to);
  }
  return [...names].map((n) => graph.view.vertexType(n)).filter((v): v is VertexType => v !== undefined && (only === undefined || v.key === only.key));
}
