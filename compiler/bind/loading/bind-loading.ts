// CREATE LOADING JOB: checks file variables, target types, value counts against the types'
// attributes, `$"col"` against the USING header options, token functions against WHERE
// functions, and one USING per source; produces the plain BoundLoadingJob the loader runs.
import type {
  AstCreateLoadingJob, AstExpr, AstLoad, AstLoadDelete, AstLoadSource, AstOption,
} from "../../ast/index.js";
import type { DiagnosticLog, SourceRange } from "../../diagnostics/index.js";
import { graphView, type GraphView } from "../../../runtime-wasm/schema/lookup.js";
import type { DatabaseSchema, EdgeType, VertexType } from "../../../runtime-wasm/schema/types.js";
import type {
  BoundLoad, BoundLoadDelete, BoundLoadingJob, LoadCondition, LoadDestination, LoadOperand, LoadOptions, LoadSource,
  LoadValue,
} from "./bound-loading.js";

/** Token functions for VALUES (gsql-ddl-loading-shell §7.5), with their argument counts. */
const VALUE_FUNCTIONS: Record<string, [number, number]> = {
  gsql_concat: [1, Infinity], gsql_substring: [2, 3], gsql_find: [2, 2], gsql_length: [1, 1], gsql_replace: [3, 4],
  gsql_regex_replace: [3, 3], gsql_regex_match: [2, 2], gsql_reverse: [1, 1], gsql_upper: [1, 1], gsql_lower: [1, 1],
  gsql_trim: [1, 1], gsql_ltrim: [1, 1], gsql_rtrim: [1, 1], gsql_split_by_space: [1, 1], gsql_to_bool: [1, 1],
  gsql_to_int: [1, 1], gsql_to_uint: [1, 1], gsql_ts_to_epoch_seconds: [1, 1], gsql_year: [1, 1], gsql_month: [1, 1],
  gsql_day: [1, 1], gsql_year_epoch: [1, 1], gsql_month_epoch: [1, 1], gsql_day_epoch: [1, 1],
  gsql_current_time_epoch: [1, 1], gsql_uuid_v4: [0, 0], flatten: [3, 4], flatten_json_array: [1, Infinity],
  to_datetime: [1, 1], datetime_diff: [2, 2],
};

/** Functions of WHERE clauses (§7.4); the two sets are disjoint. */
const WHERE_FUNCTIONS: Record<string, [number, number]> = {
  to_int: [1, 1], to_float: [1, 1], concat: [2, 2], token_len: [1, 1], gsql_is_not_empty_string: [1, 1],
  gsql_token_equal: [2, 2], gsql_token_ignore_case_equal: [2, 2], gsql_is_true: [1, 1], gsql_is_false: [1, 1],
};
const BOOLEAN_WHERE_FUNCTIONS = new Set(["gsql_is_not_empty_string", "gsql_token_equal", "gsql_token_ignore_case_equal", "gsql_is_true", "gsql_is_false"]);

const USING_OPTIONS = ["SEPARATOR", "EOL", "HEADER", "QUOTE", "USER_DEFINED_HEADER", "REJECT_LINE_RULE", "JSON_FILE",
  "NEW_VERTEX_ONLY", "VERTEX_MUST_EXIST"];

interface JobContext {
  log: DiagnosticLog;
  job: AstCreateLoadingJob;
  view: GraphView;
  schema: DatabaseSchema;
  files: Map<string, string | undefined>;
  headers: Map<string, string[]>;
  filters: Set<string>;
  tempTables: Map<string, string[]>;
  /** Column names in scope for `$"col"`: undefined when no header is declared. */
  columns?: { names?: string[]; header: string };
}

export function bindLoadingJob(job: AstCreateLoadingJob, schema: DatabaseSchema, log: DiagnosticLog, workingGraph?: string): BoundLoadingJob | undefined {
  const graph = job.graph?.name ?? workingGraph;
  if (!graph) {
    log.report("GSQL5004", job.name.range);
    return undefined;
  }
  const view = graphView(schema, graph);
  if (!view) {
    log.report("GSQL2001", job.graph?.range ?? job.name.range, { name: graph });
    return undefined;
  }
  const cx: JobContext = { log, job, view, schema, files: new Map(), headers: new Map(), filters: new Set(), tempTables: new Map() };
  const out: BoundLoadingJob = { name: job.name.name, graph, files: [], headers: [], lineFilters: [], loads: [], deletes: [] };
  const usingBySource = new Map<string, string>();
  const hasLoad = job.statements.some((s) => s.kind === "Load");
  const firstDelete = job.statements.find((s) => s.kind === "LoadDelete");
  if (hasLoad && firstDelete) log.report("GSQL4109", firstDelete.range);
  for (const s of job.statements) {
    switch (s.kind) {
      case "DefineFilename":
        if (cx.files.has(s.name.name)) log.report("GSQL2011", s.name.range, { name: s.name.name });
        cx.files.set(s.name.name, s.path?.value);
        out.files.push(s.path ? { name: s.name.name, path: s.path.value } : { name: s.name.name });
        break;
      case "DefineHeader":
        cx.headers.set(s.name.name, s.columns.map((c) => c.value));
        out.headers.push({ name: s.name.name, columns: s.columns.map((c) => c.value) });
        break;
      case "DefineInputLineFilter":
        cx.filters.add(s.name.name);
        cx.columns = undefined;
        out.lineFilters.push({ name: s.name.name, condition: bindCondition(cx, s.condition) });
        break;
      case "Load": {
        const load = bindLoad(cx, s);
        if (!load) break;
        const key = sourceKey(load.source);
        const usingText = JSON.stringify(load.options);
        const prev = usingBySource.get(key);
        if (prev !== undefined && prev !== usingText) log.report("GSQL4107", s.range, { name: key });
        usingBySource.set(key, usingText);
        out.loads.push(load);
        break;
      }
      case "LoadDelete": {
        const d = bindDelete(cx, s);
        if (d) out.deletes.push(d);
        break;
      }
    }
  }
  return out;
}

function sourceKey(s: LoadSource): string {
  return s.kind === "path" ? s.path : s.name;
}

function bindSource(cx: JobContext, s: AstLoadSource): LoadSource | undefined {
  if (s.kind === "StringLiteral") return { kind: "path", path: s.value };
  if (s.kind === "TempTableSource") {
    if (!cx.tempTables.has(s.name.name)) {
      cx.log.report("GSQL5003", s.name.range, { kind: "temp table", name: s.name.name });
      return undefined;
    }
    return { kind: "tempTable", name: s.name.name };
  }
  if (!cx.files.has(s.name)) {
    cx.log.report("GSQL4101", s.range, { name: s.name, job: cx.job.name.name });
    return undefined;
  }
  return { kind: "file", name: s.name };
}

function optionText(o: AstOption): string | undefined {
  const v = o.value;
  if (v.kind === "StringLiteral") return v.value;
  if (v.kind === "Ident") return v.name;
  if (v.kind === "BoolLiteral") return String(v.value);
  if (v.kind === "IntLiteral") return v.text;
  return undefined;
}

function bindOptions(cx: JobContext, using: AstOption[]): LoadOptions {
  const opts: LoadOptions = { separator: ",", eol: "\n", header: false, jsonFile: false, newVertexOnly: false, vertexMustExist: false };
  for (const o of using) {
    const name = o.name.name.toUpperCase();
    const text = optionText(o);
    if (!USING_OPTIONS.includes(name)) {
      cx.log.report("GSQL4108", o.name.range, { name: o.name.name });
      continue;
    }
    if (text === undefined) {
      cx.log.report("GSQL4110", o.value.range, { name, reason: "expected a quoted value" });
      continue;
    }
    const bool = (): boolean => {
      const t = text.toLowerCase();
      if (t !== "true" && t !== "false") cx.log.report("GSQL4110", o.value.range, { name, reason: `"${text}" is not "true" or "false"` });
      return t === "true";
    };
    switch (name) {
      case "SEPARATOR": {
        const sep = text === "\\t" ? "\t" : /^\\\d{1,3}$/.test(text) ? String.fromCharCode(Number(text.slice(1))) : text;
        if ([...sep].length !== 1) cx.log.report("GSQL4110", o.value.range, { name, reason: "a separator is one character" });
        opts.separator = sep;
        break;
      }
      case "EOL":
        opts.eol = text === "\\n" ? "\n" : text === "\\r\\n" ? "\r\n" : text;
        break;
      case "HEADER": opts.header = bool(); break;
      case "JSON_FILE": opts.jsonFile = bool(); break;
      case "NEW_VERTEX_ONLY": opts.newVertexOnly = bool(); break;
      case "VERTEX_MUST_EXIST": opts.vertexMustExist = bool(); break;
      case "QUOTE": {
        const q = text.toLowerCase();
        if (q !== "single" && q !== "double") cx.log.report("GSQL4110", o.value.range, { name, reason: "QUOTE is \"single\" or \"double\"" });
        else opts.quote = q;
        break;
      }
      case "USER_DEFINED_HEADER":
        if (!cx.headers.has(text)) cx.log.report("GSQL4112", o.value.range, { name: text, job: cx.job.name.name });
        opts.userDefinedHeader = text;
        break;
      case "REJECT_LINE_RULE":
        if (!cx.filters.has(text)) cx.log.report("GSQL5003", o.value.range, { kind: "input line filter", name: text });
        opts.rejectLineRule = text;
        break;
    }
  }
  return opts;
}

function bindLoad(cx: JobContext, s: AstLoad): BoundLoad | undefined {
  const source = bindSource(cx, s.source);
  const options = bindOptions(cx, s.using);
  if (options.userDefinedHeader) cx.columns = { names: cx.headers.get(options.userDefinedHeader), header: options.userDefinedHeader };
  else if (options.header || options.jsonFile) cx.columns = { header: "the file's header line" };
  else if (source?.kind === "tempTable") cx.columns = { names: cx.tempTables.get(source.name), header: `temp table ${source.name}` };
  else cx.columns = undefined;
  const destinations: LoadDestination[] = [];
  for (const d of s.destinations) {
    const where = d.where ? bindCondition(cx, d.where) : undefined;
    if (d.kind === "LoadToTempTable") {
      cx.tempTables.set(d.name.name, d.columns.map((c) => c.name));
      const values = d.values.map((v) => bindValue(cx, v));
      if (values.length !== d.columns.length) {
        cx.log.report("GSQL4103", d.range, { kind: "TEMP_TABLE", name: d.name.name, actual: values.length, expected: d.columns.length });
      }
      destinations.push({ kind: "tempTable", name: d.name.name, columns: d.columns.map((c) => c.name), values, ...(where ? { where } : {}) });
      continue;
    }
    const isVertex = d.kind === "LoadToVertex";
    const t = isVertex ? cx.view.vertexType(d.typeName.name) : cx.view.edgeType(d.typeName.name);
    if (!t) {
      cx.log.report("GSQL4102", d.typeName.range, { kind: isVertex ? "vertex" : "edge", name: d.typeName.name, graph: cx.view.graph.name });
      d.values.forEach((v) => bindValue(cx, v));
      continue;
    }
    const dest = isVertex ? bindVertexValues(cx, t as VertexType, d.values, d.range) : bindEdgeValues(cx, t as EdgeType, d.values, d.range);
    if (dest) destinations.push(where ? { ...dest, where } : dest);
  }
  cx.columns = undefined;
  return source ? { source, options, destinations } : undefined;
}

function checkCount(cx: JobContext, kind: string, name: string, actual: number, expected: number, range: SourceRange): boolean {
  if (actual === expected) return true;
  cx.log.report("GSQL4103", range, { kind, name, actual, expected });
  return false;
}

function bindVertexValues(cx: JobContext, t: VertexType, values: AstExpr[], range: SourceRange): LoadDestination | undefined {
  // A composite key is made of ordinary attributes; otherwise the id comes first.
  const needsId = !t.compositeKey;
  const expected = (needsId ? 1 : 0) + t.attributes.length;
  const bound = values.map((v) => bindValue(cx, v));
  if (!checkCount(cx, "VERTEX", t.name, values.length, expected, range)) return undefined;
  if (needsId && bound[0]!.kind === "default") cx.log.report("GSQL4106", values[0]!.range, { what: `the primary id of ${t.name}` });
  if (t.compositeKey) {
    t.attributes.forEach((a, i) => {
      if (t.compositeKey!.includes(a.name) && bound[i]!.kind === "default") cx.log.report("GSQL4106", values[i]!.range, { what: `the key attribute ${a.name}` });
    });
  }
  const id: LoadValue = needsId ? bound[0]! : { kind: "default" };
  return { kind: "vertex", typeName: t.name, id, attributes: needsId ? bound.slice(1) : bound };
}

function bindEdgeValues(cx: JobContext, t: EdgeType, values: AstExpr[], range: SourceRange): LoadDestination | undefined {
  const endpoint = (e: AstExpr | undefined, end: "FROM" | "TO"): { value: LoadValue; type?: string } => {
    if (!e) return { value: { kind: "default" } };
    if (e.kind === "TypedValue") {
      const vt = e.vertexType.name;
      const allowed = t.pairs.map((p) => (end === "FROM" ? p.from : p.to));
      if (!allowed.includes(vt)) cx.log.report("GSQL4111", e.vertexType.range, { name: vt, end, edge: t.name });
      return { value: bindValue(cx, e.value), type: vt };
    }
    const value = bindValue(cx, e);
    if (value.kind === "default") cx.log.report("GSQL4106", e.range, { what: `the ${end} vertex of ${t.name}` });
    return { value };
  };
  const from = endpoint(values[0], "FROM");
  const to = endpoint(values[1], "TO");
  const attributes = values.slice(2).map((v) => bindValue(cx, v));
  if (!checkCount(cx, "EDGE", t.name, values.length, 2 + t.attributes.length, range)) return undefined;
  t.attributes.forEach((a, i) => {
    if (t.discriminator.includes(a.name) && attributes[i]?.kind === "default") cx.log.report("GSQL4106", values[i + 2]!.range, { what: `the discriminator ${a.name}` });
  });
  return {
    kind: "edge", typeName: t.name, from: from.value, to: to.value, attributes,
    ...(from.type ? { fromType: from.type } : {}), ...(to.type ? { toType: to.type } : {}),
  };
}

function columnValue(cx: JobContext, e: Extract<AstExpr, { kind: "ColumnRef" }>): LoadValue {
  if (e.sys !== undefined) return { kind: "sys", name: e.sys };
  if (e.position !== undefined) return { kind: "column", index: Number(e.position) };
  const path = e.path ?? [];
  if (path.length > 1) return { kind: "jsonPath", path };
  const name = path[0] ?? "";
  if (!cx.columns) {
    cx.log.report("GSQL4104", e.range, { name });
    return { kind: "columnName", name };
  }
  if (cx.columns.names) {
    const index = cx.columns.names.indexOf(name);
    if (index < 0) {
      cx.log.report("GSQL4114", e.range, { name, header: cx.columns.header });
      return { kind: "columnName", name };
    }
    return { kind: "column", index };
  }
  return { kind: "columnName", name };
}

function bindValue(cx: JobContext, e: AstExpr): LoadValue {
  switch (e.kind) {
    case "ColumnRef": return columnValue(cx, e);
    case "StringLiteral": return { kind: "literal", value: e.value };
    case "IntLiteral": case "RealLiteral": return { kind: "literal", value: e.text };
    case "BoolLiteral": return { kind: "literal", value: String(e.value) };
    case "Underscore": return { kind: "default" };
    case "Reduce": {
      const r = e.reducer.name.toLowerCase();
      if (!["add", "max", "min", "and", "or", "overwrite", "ignore_if_exists"].includes(r)) {
        cx.log.report("GSQL4113", e.reducer.range, { name: e.reducer.name });
      }
      return { kind: "reduce", reducer: r, value: bindValue(cx, e.value) };
    }
    case "KeyValue":
      return { kind: "map", entries: [{ key: bindValue(cx, e.keys[0]!), value: bindValue(cx, e.values[0]!) }] };
    case "Call": return bindValueCall(cx, e);
    case "ParenList": return { kind: "composite", parts: e.items.map((i) => bindValue(cx, i)) };
    case "TypedValue":
      cx.log.report("GSQL4105", e.range, { what: "a typed value", name: e.vertexType.name, where: "an attribute value (only an edge's FROM/TO take a vertex type)" });
      return bindValue(cx, e.value);
    default:
      cx.log.report("GSQL4105", e.range, { what: "the expression", name: e.kind, where: "VALUES (use token functions; arithmetic is not allowed)" });
      return { kind: "default" };
  }
}

function bindValueCall(cx: JobContext, e: Extract<AstExpr, { kind: "Call" }>): LoadValue {
  const name = e.callee.name;
  const lower = name.toLowerCase();
  const args = () => e.args.map((a) => bindValue(cx, a));
  if (lower === "list" || lower === "set") return { kind: "collection", collection: lower === "list" ? "LIST" : "SET", items: args() };
  if (lower === "map") {
    const entries = args().flatMap((a) => (a.kind === "map" ? a.entries : []));
    if (entries.length !== e.args.length) cx.log.report("GSQL4105", e.range, { what: "MAP(...)", name: "MAP", where: "VALUES unless every argument is a ($k -> $v) entry" });
    return { kind: "map", entries };
  }
  if (lower === "split") {
    const [value, ...seps] = e.args;
    const separators = seps.map((s) => (s.kind === "StringLiteral" ? s.value : ""));
    if (!value || separators.length < 1 || separators.length > 2 || seps.some((s) => s.kind !== "StringLiteral")) {
      cx.log.report("GSQL4105", e.range, { what: "SPLIT", name: "SPLIT", where: "this form (SPLIT($n, \"sep\") or SPLIT($n, \"k:v sep\", \"element sep\"))" });
      return { kind: "default" };
    }
    return { kind: "split", value: bindValue(cx, value), separators };
  }
  if (cx.schema.tuples.some((t) => t.name === name)) return { kind: "tuple", name, args: args() };
  const arity = VALUE_FUNCTIONS[lower];
  if (!arity) {
    if (WHERE_FUNCTIONS[lower]) cx.log.report("GSQL4105", e.callee.range, { what: "the WHERE function", name, where: "VALUES" });
    else cx.log.report("GSQL4113", e.callee.range, { name });
    return { kind: "default" };
  }
  checkArity(cx, name, arity, e.args.length, e.range);
  return { kind: "call", fn: lower, args: args() };
}

function checkArity(cx: JobContext, name: string, [min, max]: [number, number], n: number, range: SourceRange): void {
  if (n < min || n > max) {
    const expected = min === max ? String(min) : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    cx.log.report("GSQL3006", range, { name, expected, actual: n });
  }
}

// ---------------------------------------------------------------- WHERE

function bindCondition(cx: JobContext, e: AstExpr): LoadCondition {
  switch (e.kind) {
    case "Binary":
      if (e.op === "AND" || e.op === "OR") return { kind: e.op === "AND" ? "and" : "or", left: bindCondition(cx, e.left), right: bindCondition(cx, e.right) };
      if (["==", "!=", "<", "<=", ">", ">="].includes(e.op)) {
        return { kind: "compare", op: e.op as "==", left: bindOperand(cx, e.left), right: bindOperand(cx, e.right) };
      }
      break;
    case "Unary":
      if (e.op === "NOT") return { kind: "not", operand: bindCondition(cx, e.operand) };
      break;
    case "IsCheck":
      if (e.check === "NUMERIC" || e.check === "EMPTY") {
        return { kind: e.check === "NUMERIC" ? "isNumeric" : "isEmpty", value: bindOperand(cx, e.value), negated: e.negated };
      }
      break;
    case "In": {
      const items = e.set.kind === "ParenList" ? e.set.items : [e.set];
      return { kind: "in", value: bindOperand(cx, e.value), set: items.map((i) => bindOperand(cx, i)), negated: e.negated };
    }
    case "Between":
      return { kind: "between", value: bindOperand(cx, e.value), low: bindOperand(cx, e.low), high: bindOperand(cx, e.high), negated: e.negated };
    case "BoolLiteral":
      return { kind: "literal", value: e.value };
    case "Call": {
      const fn = e.callee.name.toLowerCase();
      if (BOOLEAN_WHERE_FUNCTIONS.has(fn)) {
        checkArity(cx, e.callee.name, WHERE_FUNCTIONS[fn]!, e.args.length, e.range);
        return { kind: "call", fn, args: e.args.map((a) => bindOperand(cx, a)) };
      }
      if (VALUE_FUNCTIONS[fn]) {
        cx.log.report("GSQL4105", e.callee.range, { what: "the token function", name: e.callee.name, where: "WHERE" });
        return { kind: "literal", value: false };
      }
      break;
    }
    default:
      break;
  }
  cx.log.report("GSQL3005", e.range, { actual: "a non-condition" });
  return { kind: "literal", value: false };
}

function bindOperand(cx: JobContext, e: AstExpr): LoadOperand {
  switch (e.kind) {
    case "ColumnRef": {
      const v = columnValue(cx, e);
      if (v.kind === "column" || v.kind === "columnName" || v.kind === "jsonPath") return v;
      return { kind: "literal", value: "", numeric: false };
    }
    case "StringLiteral": return { kind: "literal", value: e.value, numeric: false };
    case "IntLiteral": case "RealLiteral": return { kind: "literal", value: e.text, numeric: true };
    case "Unary":
      if (e.op === "-" && (e.operand.kind === "IntLiteral" || e.operand.kind === "RealLiteral")) return { kind: "literal", value: `-${e.operand.text}`, numeric: true };
      break;
    case "Binary":
      if (["+", "-", "*", "/", "^"].includes(e.op)) return { kind: "arith", op: e.op as "+", left: bindOperand(cx, e.left), right: bindOperand(cx, e.right) };
      break;
    case "Call": {
      const fn = e.callee.name.toLowerCase();
      const arity = WHERE_FUNCTIONS[fn];
      if (arity && !BOOLEAN_WHERE_FUNCTIONS.has(fn)) {
        checkArity(cx, e.callee.name, arity, e.args.length, e.range);
        return { kind: "call", fn, args: e.args.map((a) => bindOperand(cx, a)) };
      }
      if (VALUE_FUNCTIONS[fn]) cx.log.report("GSQL4105", e.callee.range, { what: "the token function", name: e.callee.name, where: "WHERE" });
      else cx.log.report("GSQL4113", e.callee.range, { name: e.callee.name });
      return { kind: "literal", value: "", numeric: false };
    }
    default:
      break;
  }
  cx.log.report("GSQL4105", e.range, { what: "the expression", name: e.kind, where: "a WHERE operand" });
  return { kind: "literal", value: "", numeric: false };
}

function bindDelete(cx: JobContext, s: AstLoadDelete): BoundLoadDelete | undefined {
  const source = bindSource(cx, s.source);
  const isVertex = s.target === "VERTEX";
  const typeName = s.typeName.kind === "AllNames" ? "*" : s.typeName.name;
  if (typeName === "*" && isVertex) cx.log.report("GSQL4102", s.typeName.range, { kind: "vertex", name: "*", graph: cx.view.graph.name });
  else if (typeName !== "*" && !(isVertex ? cx.view.vertexType(typeName) : cx.view.edgeType(typeName))) {
    cx.log.report("GSQL4102", s.typeName.range, { kind: isVertex ? "vertex" : "edge", name: typeName, graph: cx.view.graph.name });
  }
  const keys = s.keys.map((k) => {
    let vertexType: string | undefined;
    const values = k.values.map((v) => {
      if (v.kind === "TypedValue") {
        vertexType = v.vertexType.name;
        if (!cx.view.vertexType(vertexType)) cx.log.report("GSQL4102", v.vertexType.range, { kind: "vertex", name: vertexType, graph: cx.view.graph.name });
        return bindValue(cx, v.value);
      }
      return bindValue(cx, v);
    });
    return { key: k.key, values, ...(vertexType ? { vertexType } : {}) };
  });
  const where = s.where ? bindCondition(cx, s.where) : undefined;
  if (!source) return undefined;
  return { target: isVertex ? "vertex" : "edge", typeName, keys, source, ...(where ? { where } : {}) };
}
