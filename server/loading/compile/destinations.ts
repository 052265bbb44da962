// Destination clauses → emitters. An emitter evaluates its WHERE, builds one whole object
// (id, endpoints, every attribute) and either queues it in the batch or counts why it was
// dropped; it never queues part of an object.
import type { EdgeType, VertexType } from "../../../runtime-wasm/schema/types.js";
import type { GraphView } from "../../../runtime-wasm/schema/lookup.js";
import type { EdgeDestination, EndpointExpr, VertexDestination, ResolvedUsing } from "../plan.js";
import { LoadError } from "../errors.js";
import { INVALID, WRONG_LENGTH } from "../functions/convert.js";
import { compileCondition } from "../functions/where.js";
import { pushEdge, type LoadBatch, type AttributeWrite, type VertexId } from "../sink.js";
import type { ObjectStatistics } from "../statistics.js";
import { SKIP, compileAttribute, type CompiledAttribute } from "./attributes.js";
import { NO_ID, compileIdToken, idConverter, type IdConverter, type IdToken } from "./ids.js";
import { compileToken } from "./tokens.js";
import type { ColumnResolver, Row } from "./row.js";

/** What happened to one destination on one line. */
export const enum EmitOutcome {
  Written,
  FailedCondition,
  Dropped,
}

export interface Emitter {
  group: "vertex" | "edge";
  typeName: string;
  emit(row: Row, batch: LoadBatch, stats: ObjectStatistics): EmitOutcome;
}

export function compileVertexDestination(d: VertexDestination, view: GraphView, columns: ColumnResolver, using: ResolvedUsing): Emitter {
  const vt = view.vertexType(d.type);
  if (!vt) throw new LoadError(`Vertex type ${d.type} does not exist in graph ${view.graph.name}.`);
  const composite = vt.compositeKey !== undefined && vt.compositeKey.length > 0;
  const expected = (composite ? 0 : 1) + vt.attributes.length;
  if (d.values.length !== expected) {
    const what = composite ? `its ${vt.attributes.length} attributes, key attributes included` : `the primary id and ${vt.attributes.length} attributes`;
    throw new LoadError(`TO VERTEX ${vt.name} needs ${expected} values (${what}), got ${d.values.length}.`);
  }
  let idToken: (row: Row) => IdToken;
  let attributes: CompiledAttribute[];
  if (composite) {
    // The key attributes form the id; the store keeps them as attributes of the vertex.
    const keyValues = vt.compositeKey!.map((name) => d.values[vt.attributes.findIndex((a) => a.name === name)]!);
    if (keyValues.some((v) => v === undefined || v.kind === "skip")) throw new LoadError(`The key attributes of ${vt.name} cannot be '_'.`);
    idToken = compileIdToken({ kind: "composite", parts: keyValues }, columns);
    attributes = compileAttributes(vt, d.values, columns, view).filter((a) => !vt.compositeKey!.includes(a.name));
  } else {
    if (d.values[0]!.kind === "skip") throw new LoadError(`The primary id of ${vt.name} cannot be '_'.`);
    idToken = compileIdToken(d.values[0]!, columns);
    attributes = compileAttributes(vt, d.values.slice(1), columns, view);
  }
  const toId = idConverter(vt);
  const where = d.where ? compileCondition(d.where, (e) => compileToken(e, columns)) : undefined;
  const newVertexOnly = using.newVertexOnly;
  const type = vt.key;
  return {
    group: "vertex",
    typeName: vt.name,
    emit(row, batch, stats) {
      if (where && !where(row)) return EmitOutcome.FailedCondition;
      const id = toId(idToken(row));
      if (id === NO_ID) return drop(stats, "noIdFound");
      if (id === INVALID) return drop(stats, "invalidPrimaryId");
      const writes = evaluateAttributes(attributes, row, stats);
      if (writes === undefined) return EmitOutcome.Dropped;
      batch.vertices.push({ type, id, attributes: writes, newVertexOnly });
      stats.validObject++;
      return EmitOutcome.Written;
    },
  };
}

export function compileEdgeDestination(d: EdgeDestination, view: GraphView, columns: ColumnResolver, using: ResolvedUsing): Emitter {
  const et = view.edgeType(d.type);
  if (!et) throw new LoadError(`Edge type ${d.type} does not exist in graph ${view.graph.name}.`);
  if (d.values.length !== et.attributes.length) {
    throw new LoadError(`TO EDGE ${et.name} needs ${2 + et.attributes.length} values (FROM, TO and ${et.attributes.length} attributes), got ${2 + d.values.length}.`);
  }
  et.attributes.forEach((a, i) => {
    if (et.discriminator.includes(a.name) && d.values[i]!.kind === "skip") throw new LoadError(`The discriminator attribute ${a.name} of ${et.name} cannot be '_'.`);
  });
  const endpoints = compileEndpoints(et, d.from, d.to, view, columns);
  const attributes = compileAttributes(et, d.values, columns, view);
  const where = d.where ? compileCondition(d.where, (e) => compileToken(e, columns)) : undefined;
  const vertexMustExist = using.vertexMustExist;
  const type = et.key;
  return {
    group: "edge",
    typeName: et.name,
    emit(row, batch, stats) {
      if (where && !where(row)) return EmitOutcome.FailedCondition;
      const pair = endpoints.types(row);
      if (pair === undefined) return drop(stats, "invalidVertexType");
      const fromId = pair.fromId(endpoints.fromToken(row));
      if (fromId === NO_ID) return drop(stats, "noIdFound");
      if (fromId === INVALID) return drop(stats, "invalidPrimaryId");
      const toId = pair.toId(endpoints.toToken(row));
      if (toId === NO_ID) return drop(stats, "noIdFound");
      if (toId === INVALID) return drop(stats, "invalidSecondaryId");
      const writes = evaluateAttributes(attributes, row, stats);
      if (writes === undefined) return EmitOutcome.Dropped;
      pushEdge(batch, type, pair.from, pair.to, vertexMustExist, fromId, toId, writes);
      stats.validObject++;
      return EmitOutcome.Written;
    },
  };
}

function drop(stats: ObjectStatistics, reason: Exclude<keyof ObjectStatistics, "typeName" | "validObject">): EmitOutcome {
  stats[reason]++;
  return EmitOutcome.Dropped;
}

function compileAttributes(t: VertexType | EdgeType, values: VertexDestination["values"], columns: ColumnResolver, view: GraphView): CompiledAttribute[] {
  const out: CompiledAttribute[] = [];
  t.attributes.forEach((a, i) => {
    const c = compileAttribute(a.name, a.type, values[i]!, columns, view.schema);
    if (c) out.push(c);
  });
  return out;
}

const NO_WRITES: AttributeWrite[] = Object.freeze([]) as unknown as AttributeWrite[];

/** Every attribute of the object, or undefined (counted) when any one is invalid. */
function evaluateAttributes(attributes: CompiledAttribute[], row: Row, stats: ObjectStatistics): AttributeWrite[] | undefined {
  if (attributes.length === 0) return NO_WRITES;
  const writes: AttributeWrite[] = [];
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i]!;
    const v = a.get(row);
    if (v === SKIP) continue;
    if (v === INVALID) {
      stats.invalidAttribute++;
      return undefined;
    }
    if (v === WRONG_LENGTH) {
      stats.incorrectFixedBinaryLength++;
      return undefined;
    }
    writes.push({ name: a.name, value: v, op: a.op });
  }
  return writes;
}

/** Endpoint types of one pair, as store keys, with their id converters. */
interface ResolvedPair {
  from: string;
  to: string;
  fromId: IdConverter;
  toId: IdConverter;
}

interface CompiledEndpoints {
  fromToken: (row: Row) => IdToken;
  toToken: (row: Row) => IdToken;
  /** The endpoint types of this row's edge, or undefined when they name no pair of the edge type. */
  types(row: Row): ResolvedPair | undefined;
}

/**
 * Endpoint types: fixed when the edge has one pair or the clause names the types; read from a
 * token when the clause gives an expression (checked per row: a bad name is invalidVertexType).
 * An undirected edge accepts its pairs in either orientation.
 */
function compileEndpoints(et: EdgeType, from: EndpointExpr, to: EndpointExpr, view: GraphView, columns: ColumnResolver): CompiledEndpoints {
  for (const [end, e] of [["FROM", from], ["TO", to]] as const) {
    if (e.id.kind === "skip") throw new LoadError(`The ${end} id of ${et.name} cannot be '_'.`);
  }
  const fromToken = compileIdToken(from.id, columns);
  const toToken = compileIdToken(to.id, columns);
  const pairs = et.directed ? et.pairs : [...et.pairs, ...et.pairs.map((p) => ({ from: p.to, to: p.from }))];
  const cache = new Map<string, ResolvedPair | undefined>();
  const resolve = (f: string | undefined, t: string | undefined): ResolvedPair | undefined => {
    const key = `${f ?? ""}\u0000${t ?? ""}`;
    if (cache.has(key)) return cache.get(key);
    const matches = pairs.filter((p) => (f === undefined || p.from === f) && (t === undefined || p.to === t));
    const unique = new Map(matches.map((p) => [`${p.from}\u0000${p.to}`, p]));
    let result: ResolvedPair | undefined;
    if (unique.size === 1) {
      const p = [...unique.values()][0]!;
      const fv = view.vertexType(p.from);
      const tv = view.vertexType(p.to);
      if (fv && tv) result = { from: fv.key, to: tv.key, fromId: idConverter(fv), toId: idConverter(tv) };
    }
    if (cache.size < 1024) cache.set(key, result);
    return result;
  };
  const fixedFrom = typeof from.type === "string" ? from.type : undefined;
  const fixedTo = typeof to.type === "string" ? to.type : undefined;
  for (const name of [fixedFrom, fixedTo]) {
    if (name !== undefined && !view.vertexType(name)) throw new LoadError(`Vertex type ${name} does not exist in graph ${view.graph.name}.`);
  }
  const fromTypeToken = typeof from.type === "object" ? compileToken(from.type, columns) : undefined;
  const toTypeToken = typeof to.type === "object" ? compileToken(to.type, columns) : undefined;
  if (!fromTypeToken && !toTypeToken) {
    const pair = resolve(fixedFrom, fixedTo);
    if (!pair) {
      const named = fixedFrom || fixedTo ? ` (${fixedFrom ?? "?"} -> ${fixedTo ?? "?"})` : "";
      throw new LoadError(`The endpoint types of edge ${et.name}${named} do not pick exactly one of its FROM/TO pairs; name them after the ids, e.g. VALUES ($0 TypeA, $1 TypeB).`);
    }
    return { fromToken, toToken, types: () => pair };
  }
  return {
    fromToken,
    toToken,
    types: (row) => resolve(fromTypeToken ? fromTypeToken(row) : fixedFrom, toTypeToken ? toTypeToken(row) : fixedTo),
  };
}

export type { VertexId };
