// A loading job in the normalised form `ls` and SHOW JOB print (gsql-ddl-loading-shell
// §7.11): `CREATE LOADING JOB j FOR GRAPH G {`, one statement per line, `VALUES(` with no
// space, and every LOAD's USING with upper-case keys and the defaults filled in:
// `USING SEPARATOR=",", HEADER="false", EOL="\n";`. Values and conditions keep their source
// text.
import type { AstCreateLoadingJob, AstLoad, AstLoadDestination, AstLoadingStatement, AstNode } from "../../../compiler/ast/index.js";

/** Defaults as written in GSQL text (quotes and escapes included). */
const USING_DEFAULTS: [string, string][] = [["SEPARATOR", '","'], ["HEADER", '"false"'], ["EOL", '"\\n"']];

export function normalizedJobText(job: AstCreateLoadingJob, graph: string, source: string): string {
  const slice = (n: { range: AstNode["range"] }) => source.slice(n.range.start.offset, n.range.end.offset);
  const lines = [`CREATE LOADING JOB ${job.name.name} FOR GRAPH ${graph} {`];
  for (const s of job.statements) lines.push(statementText(s, slice));
  lines.push("}");
  return lines.join("\n");
}

function statementText(s: AstLoadingStatement, slice: (n: { range: AstNode["range"] }) => string): string {
  switch (s.kind) {
    case "DefineFilename":
      return s.path ? `DEFINE FILENAME ${s.name.name} = ${JSON.stringify(s.path.value)};` : `DEFINE FILENAME ${s.name.name};`;
    case "Load":
      return loadText(s, slice);
    default: {
      const text = slice(s).trim();
      return text.endsWith(";") ? text : text + ";";
    }
  }
}

function loadText(s: AstLoad, slice: (n: { range: AstNode["range"] }) => string): string {
  const source = s.source.kind === "Ident" ? s.source.name : s.source.kind === "StringLiteral" ? s.source.text : `TEMP_TABLE ${s.source.name.name}`;
  const destinations = s.destinations.map((d) => destinationText(d, slice)).join(", ");
  const given = new Map<string, string>();
  for (const o of s.using) given.set(o.name.name.toUpperCase(), o.value.kind === "StringLiteral" ? o.value.text : `"${slice(o.value)}"`);
  const using = [...USING_DEFAULTS.map(([k, v]) => [k, given.get(k) ?? v] as const), ...[...given].filter(([k]) => !USING_DEFAULTS.some(([d]) => d === k))];
  return `LOAD ${source} ${destinations} USING ${using.map(([k, v]) => `${k}=${v}`).join(", ")};`;
}

function destinationText(d: AstLoadDestination, slice: (n: { range: AstNode["range"] }) => string): string {
  const values = `VALUES(${d.values.map(slice).join(", ")})`;
  const where = d.where ? ` WHERE ${slice(d.where)}` : "";
  switch (d.kind) {
    case "LoadToVertex":
      return `TO VERTEX ${d.typeName.name} ${values}${where}`;
    case "LoadToEdge":
      return `TO EDGE ${d.typeName.name} ${values}${where}`;
    case "LoadToTempTable":
      return `TO TEMP_TABLE ${d.name.name}(${d.columns.map((c) => c.name).join(", ")}) ${values}${where}`;
  }
}
