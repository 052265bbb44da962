// A loading job as normalised GSQL text, the form `ls` and SHOW JOB print
// (gsql-ddl-loading-shell §7.11): a first line `  - CREATE LOADING JOB j FOR GRAPH G {`, the
// body indented 6 spaces, `VALUES(` without a space, and USING with upper-case keys and the
// defaults SEPARATOR, HEADER and EOL always filled in. Literal sources print as the path
// they were written as; other options print only when set.
import type { Destination, EndpointExpr, LoadingJobPlan, PlanCondition, PlanSource, PlanStatement, UsingOptions, ValueExpr, WhereExpr } from "./plan.js";
import { resolveUsing } from "./plan.js";

const LITERAL_VARIABLE = /^__GSQL_FILENAME_\d+__$/;

export function formatLoadingJob(plan: LoadingJobPlan): string[] {
  const body: string[] = [];
  for (const f of plan.files) {
    if (LITERAL_VARIABLE.test(f.name)) continue;
    body.push(f.defaultPath !== undefined ? `DEFINE FILENAME ${f.name} = ${quote(f.defaultPath)};` : `DEFINE FILENAME ${f.name};`);
  }
  for (const h of plan.headers) body.push(`DEFINE HEADER ${h.name} = ${h.columns.map(quote).join(", ")};`);
  for (const f of plan.lineFilters) body.push(`DEFINE INPUT_LINE_FILTER ${f.name} = ${condition(f.condition)};`);
  for (const s of plan.statements) body.push(statement(s, plan));
  return [`  - CREATE LOADING JOB ${plan.name} FOR GRAPH ${plan.graph} {`, ...body.map((line) => "      " + line), "    }"];
}

function statement(s: PlanStatement, plan: LoadingJobPlan): string {
  const src = source(s.source, plan);
  const where = (c: PlanCondition | undefined) => (c ? ` WHERE ${condition(c)}` : "");
  switch (s.kind) {
    case "load": {
      const using = s.source.kind === "file" ? ` ${usingText(s.using)}` : "";
      return `LOAD ${src} ${s.destinations.map(destination).join(", ")}${using};`;
    }
    case "delete_vertex":
      return `DELETE VERTEX ${s.type} (PRIMARY_ID ${value(s.id)}) FROM ${src}${where(s.where)};`;
    case "delete_edge": {
      const keys = [`FROM ${endpoint(s.from)}`];
      if (s.to) keys.push(`TO ${endpoint(s.to)}`);
      if (s.discriminator) keys.push(`DISCRIMINATOR(${s.discriminator.map(value).join(", ")})`);
      return `DELETE EDGE ${s.type} (${keys.join(", ")}) FROM ${src}${where(s.where)};`;
    }
  }
}

function source(s: PlanSource, plan: LoadingJobPlan): string {
  if (s.kind === "temp_table") return `TEMP_TABLE ${s.table}`;
  const file = plan.files.find((f) => f.name === s.variable);
  return LITERAL_VARIABLE.test(s.variable) && file?.defaultPath !== undefined ? quote(file.defaultPath) : s.variable;
}

function usingText(u: UsingOptions): string {
  const r = resolveUsing(u);
  const parts = [`SEPARATOR=${quote(r.separator)}`, `HEADER="${r.header}"`, `EOL=${quote(r.eol)}`];
  if (r.quote) parts.push(`QUOTE="${r.quote}"`);
  if (r.userDefinedHeader) parts.push(`USER_DEFINED_HEADER=${quote(r.userDefinedHeader)}`);
  if (r.rejectLineRule) parts.push(`REJECT_LINE_RULE=${quote(r.rejectLineRule)}`);
  if (r.jsonFile) parts.push(`JSON_FILE="true"`);
  if (r.newVertexOnly) parts.push(`NEW_VERTEX_ONLY="true"`);
  if (r.vertexMustExist) parts.push(`VERTEX_MUST_EXIST="true"`);
  return `USING ${parts.join(", ")}`;
}

function destination(d: Destination): string {
  const where = d.where ? ` WHERE ${condition(d.where)}` : "";
  switch (d.kind) {
    case "vertex":
      return `TO VERTEX ${d.type} VALUES(${d.values.map(value).join(", ")})${where}`;
    case "edge":
      return `TO EDGE ${d.type} VALUES(${[endpoint(d.from), endpoint(d.to), ...d.values.map(value)].join(", ")})${where}`;
    case "temp_table":
      return `TO TEMP_TABLE ${d.table}(${d.columns.join(", ")}) VALUES(${d.values.map(value).join(", ")})${where}`;
  }
}

function endpoint(e: EndpointExpr): string {
  if (e.type === undefined) return value(e.id);
  return `${value(e.id)} ${typeof e.type === "string" ? e.type : value(e.type)}`;
}

function value(v: ValueExpr): string {
  switch (v.kind) {
    case "column":
      return `$${v.index}`;
    case "named_column":
      return `$${quote(v.name)}`;
    case "json_path":
      return `$${v.path.map(quote).join(":")}`;
    case "literal":
      return /^-?\d+(\.\d+)?$/.test(v.text) ? v.text : quote(v.text);
    case "skip":
      return "_";
    case "file_name":
      return "$sys.file_name";
    case "call":
      return `${v.name}(${v.args.map(value).join(", ")})`;
    case "reduce":
      return `REDUCE(${v.reducer}(${value(v.value)}))`;
    case "list":
    case "set":
      return `${v.kind.toUpperCase()}(${v.items.map(value).join(", ")})`;
    case "map": {
      const entries = v.entries.map((e) => `(${value(e.key)} -> ${value(e.value)})`);
      return entries.length === 1 ? entries[0]! : `MAP(${entries.join(", ")})`;
    }
    case "split":
      return v.keySeparator !== undefined ? `SPLIT(${value(v.value)}, ${quote(v.keySeparator)}, ${quote(v.separator)})` : `SPLIT(${value(v.value)}, ${quote(v.separator)})`;
    case "tuple":
      return `${v.name}(${v.args.map(value).join(", ")})`;
    case "composite":
      return `(${v.parts.map(value).join(", ")})`;
    case "flatten":
      return v.subSeparator !== undefined
        ? `flatten(${value(v.value)}, ${quote(v.separator)}, ${quote(v.subSeparator)}, ${v.fieldCount})`
        : `flatten(${value(v.value)}, ${quote(v.separator)}, ${v.fieldCount})`;
    case "flatten_json_array":
      return `flatten_json_array(${[v.value, ...v.keys].map(value).join(", ")})`;
  }
}

function condition(c: PlanCondition): string {
  const not = (negated: boolean | undefined) => (negated ? "NOT " : "");
  switch (c.kind) {
    case "and":
    case "or":
      return `${nested(c.left, c.kind)} ${c.kind.toUpperCase()} ${nested(c.right, c.kind)}`;
    case "not":
      return `NOT ${nested(c.operand, "not")}`;
    case "compare":
      return `${operand(c.left)} ${c.op} ${operand(c.right)}`;
    case "is_numeric":
      return `${operand(c.operand)} IS ${not(c.negated)}NUMERIC`;
    case "is_empty":
      return `${operand(c.operand)} IS ${not(c.negated)}EMPTY`;
    case "in":
      return `${operand(c.operand)} ${not(c.negated)}IN (${c.values.map(operand).join(", ")})`;
    case "between":
      return `${operand(c.operand)} ${not(c.negated)}BETWEEN ${operand(c.low)} AND ${operand(c.high)}`;
    case "predicate":
      return `${c.name}(${c.args.map(operand).join(", ")})`;
    case "constant":
      return c.value ? "TRUE" : "FALSE";
  }
}

/** A sub-condition, in parentheses when it is an AND/OR other than its parent's. */
function nested(c: PlanCondition, parent: "and" | "or" | "not"): string {
  const text = condition(c);
  return (c.kind === "and" || c.kind === "or") && c.kind !== parent ? `(${text})` : text;
}

function operand(e: WhereExpr): string {
  switch (e.kind) {
    case "token":
      return value(e.value);
    case "string":
      return quote(e.text);
    case "number":
      return String(e.value);
    case "function":
      return `${e.name}(${e.args.map(operand).join(", ")})`;
    case "arith":
      return `(${operand(e.left)} ${e.op} ${operand(e.right)})`;
    case "negate":
      return `-${operand(e.operand)}`;
  }
}

/** A double-quoted string with \t, \n, \r, \" and \\ escaped and other control characters as "\<decimal>". */
function quote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (code < 32) out += `\\${code}`;
    else out += ch;
  }
  return out + '"';
}
