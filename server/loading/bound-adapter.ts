// The bound form of CREATE LOADING JOB (compiler/bind/loading) → the loader's plan. The
// binder has checked names, counts and function placement; this only re-shapes the data:
// literal sources become file variables __GSQL_FILENAME_<n>__ with that default path,
// flatten calls become flatten values, numeric WHERE literals become numbers.
import type {
  BoundLoad, BoundLoadDelete, BoundLoadingJob, LoadCondition, LoadDestination, LoadOperand, LoadSource, LoadValue,
} from "../../compiler/bind/loading/bound-loading.js";
import { LoadError } from "./errors.js";
import {
  literalFileVariable, type Destination, type EndpointExpr, type FileVariable, type LoadingJobPlan, type PlanCondition, type PlanSource,
  type PlanStatement, type ReducerName, type UsingOptions, type ValueExpr, type WhereExpr,
} from "./plan.js";

export function planFromBoundJob(job: BoundLoadingJob): LoadingJobPlan {
  const files: FileVariable[] = job.files.map((f) => (f.path !== undefined ? { name: f.name, defaultPath: f.path } : { name: f.name }));
  const literalSources = new Map<string, string>();
  const source = (s: LoadSource): PlanSource => {
    if (s.kind === "tempTable") return { kind: "temp_table", table: s.name };
    if (s.kind === "file") return { kind: "file", variable: s.name };
    let variable = literalSources.get(s.path);
    if (variable === undefined) {
      variable = literalFileVariable(literalSources.size);
      literalSources.set(s.path, variable);
      files.push({ name: variable, defaultPath: s.path });
    }
    return { kind: "file", variable };
  };
  const statements: PlanStatement[] = [...job.loads.map((l) => planLoad(l, source)), ...job.deletes.map((d) => planDelete(d, source))];
  return {
    name: job.name,
    graph: job.graph,
    files,
    headers: job.headers.map((h) => ({ name: h.name, columns: [...h.columns] })),
    lineFilters: job.lineFilters.map((f) => ({ name: f.name, condition: planCondition(f.condition) })),
    statements,
  };
}

function planLoad(l: BoundLoad, source: (s: LoadSource) => PlanSource): PlanStatement {
  const o = l.options;
  const using: UsingOptions = {
    separator: o.separator,
    eol: o.eol,
    header: o.header,
    jsonFile: o.jsonFile,
    newVertexOnly: o.newVertexOnly,
    vertexMustExist: o.vertexMustExist,
    ...(o.quote ? { quote: o.quote } : {}),
    ...(o.userDefinedHeader ? { userDefinedHeader: o.userDefinedHeader } : {}),
    ...(o.rejectLineRule ? { rejectLineRule: o.rejectLineRule } : {}),
  };
  return { kind: "load", source: source(l.source), destinations: l.destinations.map(planDestination), using };
}

function planDestination(d: LoadDestination): Destination {
  const where = d.where ? { where: planCondition(d.where) } : {};
  switch (d.kind) {
    case "vertex":
      if (d.id.kind === "default") {
        // A composite PRIMARY KEY: the key attributes are among the values.
        return { kind: "vertex", type: d.typeName, values: d.attributes.map(planValue), ...where };
      }
      return { kind: "vertex", type: d.typeName, values: [planValue(d.id), ...d.attributes.map(planValue)], ...where };
    case "edge": {
      const from: EndpointExpr = { id: planValue(d.from), ...(d.fromType ? { type: d.fromType } : {}) };
      const to: EndpointExpr = { id: planValue(d.to), ...(d.toType ? { type: d.toType } : {}) };
      return { kind: "edge", type: d.typeName, from, to, values: d.attributes.map(planValue), ...where };
    }
    case "tempTable":
      return { kind: "temp_table", table: d.name, columns: [...d.columns], values: d.values.map(planValue), ...where };
  }
}

function planDelete(d: BoundLoadDelete, source: (s: LoadSource) => PlanSource): PlanStatement {
  const key = (k: "PRIMARY_ID" | "FROM" | "TO" | "DISCRIMINATOR") => d.keys.find((x) => x.key === k);
  const where = d.where ? { where: planCondition(d.where) } : {};
  if (d.target === "vertex") {
    const id = key("PRIMARY_ID")?.values[0];
    if (!id) throw new LoadError(`DELETE VERTEX ${d.typeName} needs PRIMARY_ID.`);
    return { kind: "delete_vertex", type: d.typeName, id: planValue(id), source: source(d.source), using: {}, ...where };
  }
  const endpoint = (k: "FROM" | "TO"): EndpointExpr | undefined => {
    const entry = key(k);
    if (!entry || entry.values.length === 0) return undefined;
    return { id: planValue(entry.values[0]!), ...(entry.vertexType ? { type: entry.vertexType } : {}) };
  };
  const from = endpoint("FROM");
  if (!from) throw new LoadError(`DELETE EDGE ${d.typeName} needs FROM.`);
  const to = endpoint("TO");
  const discriminator = key("DISCRIMINATOR")?.values.map(planValue);
  return {
    kind: "delete_edge",
    type: d.typeName,
    from,
    ...(to ? { to } : {}),
    ...(discriminator ? { discriminator } : {}),
    source: source(d.source),
    using: {},
    ...where,
  };
}

function planValue(v: LoadValue): ValueExpr {
  switch (v.kind) {
    case "column":
      return { kind: "column", index: v.index };
    case "columnName":
      return { kind: "named_column", name: v.name };
    case "jsonPath":
      return { kind: "json_path", path: [...v.path] };
    case "sys":
      if (v.name.toLowerCase() !== "file_name") throw new LoadError(`$sys.${v.name} cannot be loaded; $sys.file_name can.`);
      return { kind: "file_name" };
    case "literal":
      return { kind: "literal", text: v.value };
    case "default":
      return { kind: "skip" };
    case "call":
      return planCall(v.fn, v.args);
    case "reduce":
      return { kind: "reduce", reducer: v.reducer as ReducerName, value: planValue(v.value) };
    case "collection":
      return { kind: v.collection === "LIST" ? "list" : "set", items: v.items.map(planValue) };
    case "map":
      return { kind: "map", entries: v.entries.map((e) => ({ key: planValue(e.key), value: planValue(e.value) })) };
    case "split":
      // SPLIT($1, "|") for LIST/SET; SPLIT($1, ":", ",") for MAP: key separator, then element separator.
      return v.separators.length === 2
        ? { kind: "split", value: planValue(v.value), keySeparator: v.separators[0]!, separator: v.separators[1]! }
        : { kind: "split", value: planValue(v.value), separator: v.separators[0]! };
    case "tuple":
      return { kind: "tuple", name: v.name, args: v.args.map(planValue) };
    case "composite":
      return { kind: "composite", parts: v.parts.map(planValue) };
  }
}

function planCall(fn: string, args: LoadValue[]): ValueExpr {
  const text = (a: LoadValue | undefined, what: string): string => {
    if (a?.kind !== "literal") throw new LoadError(`${fn}: ${what} must be a literal.`);
    return a.value;
  };
  if (fn === "flatten") {
    const [value, sep, third, fourth] = args;
    if (!value) throw new LoadError("flatten needs a value to split.");
    if (args.length === 3) return { kind: "flatten", value: planValue(value), separator: text(sep, "the separator"), fieldCount: Number(text(third, "the field count")) };
    return { kind: "flatten", value: planValue(value), separator: text(sep, "the separator"), subSeparator: text(third, "the field separator"), fieldCount: Number(text(fourth, "the field count")) };
  }
  if (fn === "flatten_json_array") {
    const [value, ...keys] = args;
    if (!value) throw new LoadError("flatten_json_array needs the array to flatten.");
    return { kind: "flatten_json_array", value: planValue(value), keys: keys.map(planValue) };
  }
  return { kind: "call", name: fn, args: args.map(planValue) };
}

function planCondition(c: LoadCondition): PlanCondition {
  switch (c.kind) {
    case "compare":
      return { kind: "compare", op: c.op, left: planOperand(c.left), right: planOperand(c.right) };
    case "and":
    case "or":
      return { kind: c.kind, left: planCondition(c.left), right: planCondition(c.right) };
    case "not":
      return { kind: "not", operand: planCondition(c.operand) };
    case "isNumeric":
      return { kind: "is_numeric", operand: planOperand(c.value), negated: c.negated };
    case "isEmpty":
      return { kind: "is_empty", operand: planOperand(c.value), negated: c.negated };
    case "in":
      return { kind: "in", operand: planOperand(c.value), values: c.set.map(planOperand), negated: c.negated };
    case "between":
      return { kind: "between", operand: planOperand(c.value), low: planOperand(c.low), high: planOperand(c.high), negated: c.negated };
    case "call":
      return { kind: "predicate", name: c.fn, args: c.args.map(planOperand) };
    case "literal":
      return { kind: "constant", value: c.value };
  }
}

function planOperand(o: LoadOperand): WhereExpr {
  switch (o.kind) {
    case "column":
      return { kind: "token", value: { kind: "column", index: o.index } };
    case "columnName":
      return { kind: "token", value: { kind: "named_column", name: o.name } };
    case "jsonPath":
      return { kind: "token", value: { kind: "json_path", path: [...o.path] } };
    case "literal":
      return o.numeric ? { kind: "number", value: Number(o.value) } : { kind: "string", text: o.value };
    case "arith":
      return { kind: "arith", op: o.op, left: planOperand(o.left), right: planOperand(o.right) };
    case "call": {
      const name = o.fn as "to_int" | "to_float" | "concat" | "token_len";
      return { kind: "function", name, args: o.args.map(planOperand) };
    }
  }
}
