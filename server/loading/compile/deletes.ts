// DELETE statements of a loading job (gsql-ddl-loading-shell §7.10) → emitters queuing
// vertex and edge deletions: DELETE VERTEX V (PRIMARY_ID id), DELETE EDGE E (FROM a [, TO b]
// [, DISCRIMINATOR(...)]), DELETE EDGE * (FROM a V).
import type { GraphView } from "../../../runtime-wasm/schema/lookup.js";
import type { AttrValue } from "../../../runtime-wasm/schema/types.js";
import type { DeleteStatement, EndpointExpr } from "../plan.js";
import { LoadError } from "../errors.js";
import { INVALID, WRONG_LENGTH, scalarConverter } from "../functions/convert.js";
import { compileCondition } from "../functions/where.js";
import type { ObjectStatistics } from "../statistics.js";
import type { LoadBatch, VertexId } from "../sink.js";
import { EmitOutcome } from "./destinations.js";
import { NO_ID, compileIdToken, idConverter, type IdConverter, type IdToken } from "./ids.js";
import { compileToken } from "./tokens.js";
import type { ColumnResolver, Row } from "./row.js";

export interface DeleteEmitter {
  group: "deleteVertex" | "deleteEdge";
  typeName: string;
  emit(row: Row, batch: LoadBatch, stats: ObjectStatistics): EmitOutcome;
}

export function compileDelete(s: DeleteStatement, view: GraphView, columns: ColumnResolver): DeleteEmitter {
  const where = s.where ? compileCondition(s.where, (e) => compileToken(e, columns)) : undefined;
  if (s.kind === "delete_vertex") {
    const vt = view.vertexType(s.type);
    if (!vt) throw new LoadError(`Vertex type ${s.type} does not exist in graph ${view.graph.name}.`, s.line);
    const token = compileIdToken(s.id, columns);
    const toId = idConverter(vt);
    const type = vt.key;
    return {
      group: "deleteVertex",
      typeName: vt.name,
      emit(row, batch, stats) {
        if (where && !where(row)) return EmitOutcome.FailedCondition;
        const id = toId(token(row));
        if (id === NO_ID) return count(stats, "noIdFound");
        if (id === INVALID) return count(stats, "invalidPrimaryId");
        batch.vertexDeletes.push({ type, id });
        stats.validObject++;
        return EmitOutcome.Written;
      },
    };
  }
  const edgeType = s.type === "*" ? undefined : view.edgeType(s.type);
  if (s.type !== "*" && !edgeType) throw new LoadError(`Edge type ${s.type} does not exist in graph ${view.graph.name}.`, s.line);
  const fromType = endpointType(s.from, edgeType?.pairs.map((p) => p.from), view, "FROM", s.type);
  const from = endpoint(s.from, fromType, view, columns);
  const to = s.to ? endpoint(s.to, endpointType(s.to, edgeType?.pairs.filter((p) => p.from === fromType).map((p) => p.to), view, "TO", s.type), view, columns) : undefined;
  const discriminator = compileDiscriminator(s, edgeType, columns);
  const type = edgeType ? edgeType.key : "*";
  return {
    group: "deleteEdge",
    typeName: s.type,
    emit(row, batch, stats) {
      if (where && !where(row)) return EmitOutcome.FailedCondition;
      const fromId = from.id(from.token(row));
      if (fromId === NO_ID) return count(stats, "noIdFound");
      if (fromId === INVALID) return count(stats, "invalidPrimaryId");
      let toRef: { type: string; id: VertexId } | undefined;
      if (to) {
        const toId = to.id(to.token(row));
        if (toId === NO_ID) return count(stats, "noIdFound");
        if (toId === INVALID) return count(stats, "invalidSecondaryId");
        toRef = { type: to.type, id: toId };
      }
      let values: AttrValue[] | undefined;
      if (discriminator) {
        values = [];
        for (const d of discriminator) {
          const v = d(row);
          if (v === INVALID || v === WRONG_LENGTH) return count(stats, "invalidAttribute");
          values.push(v);
        }
      }
      batch.edgeDeletes.push({ type, from: { type: from.type, id: fromId }, to: toRef, discriminator: values });
      stats.validObject++;
      return EmitOutcome.Written;
    },
  };
}

function count(stats: ObjectStatistics, reason: "noIdFound" | "invalidPrimaryId" | "invalidSecondaryId" | "invalidAttribute"): EmitOutcome {
  stats[reason]++;
  return EmitOutcome.Dropped;
}

function endpointType(e: EndpointExpr, candidates: string[] | undefined, view: GraphView, end: string, edge: string): string {
  if (typeof e.type === "object") throw new LoadError(`DELETE EDGE ${edge}: the ${end} vertex type must be a type name.`);
  if (e.type !== undefined) {
    if (!view.vertexType(e.type)) throw new LoadError(`Vertex type ${e.type} does not exist in graph ${view.graph.name}.`);
    return e.type;
  }
  const unique = [...new Set(candidates ?? [])];
  if (unique.length !== 1) throw new LoadError(`DELETE EDGE ${edge}: name the ${end} vertex type after its id.`);
  return unique[0]!;
}

function endpoint(e: EndpointExpr, type: string, view: GraphView, columns: ColumnResolver): { type: string; token: (row: Row) => IdToken; id: IdConverter } {
  const vt = view.vertexType(type)!;
  return { type: vt.key, token: compileIdToken(e.id, columns), id: idConverter(vt) };
}

function compileDiscriminator(
  s: DeleteStatement & { kind: "delete_edge" },
  edgeType: ReturnType<GraphView["edgeType"]>,
  columns: ColumnResolver,
): ((row: Row) => AttrValue | typeof INVALID | typeof WRONG_LENGTH)[] | undefined {
  if (!s.discriminator) return undefined;
  if (!edgeType || edgeType.discriminator.length !== s.discriminator.length) {
    throw new LoadError(`DELETE EDGE ${s.type}: DISCRIMINATOR needs one value per discriminator attribute of the edge type.`);
  }
  return s.discriminator.map((expr, i) => {
    const attr = edgeType.attributes.find((a) => a.name === edgeType.discriminator[i])!;
    if (attr.type.kind !== "scalar") throw new LoadError(`Discriminator ${attr.name} must be a scalar.`);
    const convert = scalarConverter(attr.type.name, attr.type.size);
    const token = compileToken(expr, columns);
    return (row: Row) => convert(token(row) ?? "");
  });
}
