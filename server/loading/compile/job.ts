// The compile stage of the loader: a LoadingJobPlan is checked against the graph schema and
// grouped by source (file variable). Column names may come from the file's own header, so
// each source is bound to its column layout when reading starts (`JobSource.bind`); binding
// compiles every statement reading the source into emitters over rows.
import type { GraphView } from "../../../runtime-wasm/schema/lookup.js";
import type { LoadingJobPlan, LoadStatement, PlanStatement, ResolvedUsing, PlanCondition } from "../plan.js";
import { resolveUsing } from "../plan.js";
import { LoadError } from "../errors.js";
import { compileCondition } from "../functions/where.js";
import { emptyStatistics, objectEntry, type LoadStatistics, type ObjectStatistics } from "../statistics.js";
import type { LoadBatch } from "../sink.js";
import { EmitOutcome, compileEdgeDestination, compileVertexDestination, type Emitter } from "./destinations.js";
import { compileDelete, type DeleteEmitter } from "./deletes.js";
import { compileTempTable, type TempTableProducer } from "./temp-table.js";
import { compileToken } from "./tokens.js";
import type { ColumnResolver, Row } from "./row.js";

export interface CompiledJob {
  plan: LoadingJobPlan;
  view: GraphView;
  /** Every file variable that some statement reads, in job order. */
  sources: JobSource[];
}

export interface JobSource {
  variable: string;
  defaultPath: string | undefined;
  using: ResolvedUsing;
  /** Columns of USER_DEFINED_HEADER, if used. */
  definedHeader: string[] | undefined;
  /** Compiles the source's statements for a column layout (the header's names, if any). */
  bind(headerColumns: string[] | undefined, stats: LoadStatistics): BoundSource;
}

export interface BoundSource {
  /** Tokens a delimited line must have (one past the highest column used). */
  requiredTokens: number;
  /** Key paths a JSON line is read at; row.tokens follow this order. */
  jsonPaths: string[][];
  /** REJECT_LINE_RULE: true means the line is rejected. */
  rejectLine: ((row: Row) => boolean) | undefined;
  /** Runs every statement of the source on one valid line. Returns false if some WHERE failed. */
  process(row: Row, batch: LoadBatch): boolean;
}

export function compileJob(plan: LoadingJobPlan, view: GraphView): CompiledJob {
  if (plan.graph !== view.graph.name) throw new LoadError(`The loading job ${plan.name} belongs to graph ${plan.graph}, not ${view.graph.name}.`);
  const kinds = new Set(plan.statements.map((s) => (s.kind === "load" ? "load" : "delete")));
  if (kinds.size > 1) throw new LoadError(`The loading job ${plan.name} mixes LOAD and DELETE statements.`);
  const files = new Map(plan.files.map((f) => [f.name, f]));
  const byVariable = new Map<string, PlanStatement[]>();
  const byTable = new Map<string, LoadStatement[]>();
  for (const s of plan.statements) {
    if (s.source.kind === "temp_table") {
      if (s.kind !== "load") throw new LoadError("DELETE statements read files, not temp tables.", s.line);
      const list = byTable.get(s.source.table) ?? [];
      list.push(s);
      byTable.set(s.source.table, list);
      continue;
    }
    if (!files.has(s.source.variable)) throw new LoadError(`File variable ${s.source.variable} is not defined in the loading job ${plan.name}.`, s.line);
    const list = byVariable.get(s.source.variable) ?? [];
    list.push(s);
    byVariable.set(s.source.variable, list);
  }
  const tableDefinitions = collectTempTables(plan);
  for (const table of byTable.keys()) {
    if (!tableDefinitions.has(table)) throw new LoadError(`Temp table ${table} is read but never filled by a TO TEMP_TABLE clause.`);
  }
  const sources: JobSource[] = [];
  for (const [variable, statements] of byVariable) {
    const using = sameUsing(variable, statements);
    const definedHeader = using.userDefinedHeader !== undefined ? headerDefinition(plan, using.userDefinedHeader) : undefined;
    const lineFilter = using.rejectLineRule !== undefined ? lineFilterDefinition(plan, using.rejectLineRule) : undefined;
    if (using.jsonFile && (using.header || definedHeader)) throw new LoadError(`JSON_FILE sources have no header (file variable ${variable}).`);
    const source: JobSource = {
      variable,
      defaultPath: files.get(variable)!.defaultPath,
      using,
      definedHeader,
      bind: (headerColumns, stats) => bindSource(statements, byTable, view, using, headerColumns ?? definedHeader, lineFilter, stats),
    };
    // Compile once now, against the declared layout, so schema errors surface before any read.
    if (!using.header) source.bind(undefined, emptyStatistics());
    sources.push(source);
  }
  return { plan, view, sources };
}

function sameUsing(variable: string, statements: PlanStatement[]): ResolvedUsing {
  const resolved = statements.map((s) => resolveUsing(s.using));
  const first = JSON.stringify(resolved[0]);
  if (resolved.some((u) => JSON.stringify(u) !== first)) {
    throw new LoadError(`Every LOAD reading ${variable} must have the same USING clause; put several destinations in one LOAD instead.`);
  }
  const u = resolved[0]!;
  for (const [name, text] of [["SEPARATOR", u.separator], ["EOL", u.eol]] as const) {
    if (text.length < 1 || text.length > 4) throw new LoadError(`${name} must be 1 to 4 characters long.`);
  }
  if (u.separator === u.eol) throw new LoadError("SEPARATOR and EOL must differ.");
  return u;
}

function headerDefinition(plan: LoadingJobPlan, name: string): string[] {
  const h = plan.headers.find((x) => x.name === name);
  if (!h) throw new LoadError(`USER_DEFINED_HEADER ${name} is not defined by DEFINE HEADER.`);
  return h.columns;
}

function lineFilterDefinition(plan: LoadingJobPlan, name: string): PlanCondition {
  const f = plan.lineFilters.find((x) => x.name === name);
  if (!f) throw new LoadError(`REJECT_LINE_RULE ${name} is not defined by DEFINE INPUT_LINE_FILTER.`);
  return f.condition;
}

function collectTempTables(plan: LoadingJobPlan): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const s of plan.statements) {
    if (s.kind !== "load") continue;
    for (const d of s.destinations) {
      if (d.kind !== "temp_table") continue;
      const known = tables.get(d.table);
      if (known && known.join(",") !== d.columns.join(",")) throw new LoadError(`Temp table ${d.table} is declared with different columns.`);
      tables.set(d.table, d.columns);
    }
  }
  return tables;
}

/** Column resolution for a delimited or JSON source, recording what the statements use. */
class SourceColumns implements ColumnResolver {
  maxPosition = -1;
  readonly paths: string[][] = [];
  private readonly pathIndex = new Map<string, number>();

  constructor(
    private readonly json: boolean,
    private readonly header: string[] | undefined,
    private readonly variable: string,
  ) {}

  position(index: number): number {
    if (this.json) throw new LoadError(`$${index} cannot address a JSON_FILE source (${this.variable}); use $"key".`);
    if (!Number.isInteger(index) || index < 0) throw new LoadError(`Column $${index} is not a valid position.`);
    this.maxPosition = Math.max(this.maxPosition, index);
    return index;
  }

  named(name: string): number {
    if (this.json) return this.path([name]);
    if (!this.header) throw new LoadError(`$"${name}" needs HEADER="true" or USER_DEFINED_HEADER for ${this.variable}.`);
    const i = this.header.indexOf(name);
    if (i < 0) throw new LoadError(`Column "${name}" is not in the header of ${this.variable} (${this.header.join(", ")}).`);
    return this.position(i);
  }

  path(path: string[]): number {
    if (!this.json) throw new LoadError(`The JSON path $"${path.join('":"')}" needs USING JSON_FILE="true".`);
    const key = JSON.stringify(path);
    let i = this.pathIndex.get(key);
    if (i === undefined) {
      i = this.paths.length;
      this.paths.push(path);
      this.pathIndex.set(key, i);
    }
    return i;
  }
}

/** Columns of a temp table, by position or by its declared column names. */
class TableColumns implements ColumnResolver {
  constructor(
    private readonly table: string,
    private readonly columns: string[],
  ) {}
  position(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.columns.length) throw new LoadError(`Temp table ${this.table} has no column $${index}.`);
    return index;
  }
  named(name: string): number {
    const i = this.columns.indexOf(name);
    if (i < 0) throw new LoadError(`Temp table ${this.table} has no column "${name}".`);
    return i;
  }
  path(): number {
    throw new LoadError(`Temp table ${this.table} columns are addressed as $"name" or $N.`);
  }
}

type LineStep = (row: Row, batch: LoadBatch) => boolean;

function bindSource(
  statements: PlanStatement[],
  byTable: Map<string, LoadStatement[]>,
  view: GraphView,
  using: ResolvedUsing,
  header: string[] | undefined,
  lineFilter: PlanCondition | undefined,
  stats: LoadStatistics,
): BoundSource {
  const variable = statements[0]!.source.kind === "file" ? statements[0]!.source.variable : "";
  const columns = new SourceColumns(using.jsonFile, header, variable);
  const steps: LineStep[] = statements.map((s) => compileStatement(s, columns, byTable, view, using, stats, new Set()));
  // A line filter may read columns a short line lacks (they read as ""): it does not
  // raise the token count lines need, except that JSON paths must be extracted for it.
  const filterColumns = using.jsonFile ? columns : new SourceColumns(false, header, variable);
  const rejectLine = lineFilter ? compileCondition(lineFilter, (e) => compileToken(e, filterColumns)) : undefined;
  return {
    requiredTokens: columns.maxPosition + 1,
    jsonPaths: columns.paths,
    rejectLine,
    process(row, batch) {
      let allConditionsHeld = true;
      for (let i = 0; i < steps.length; i++) if (!steps[i]!(row, batch)) allConditionsHeld = false;
      return allConditionsHeld;
    },
  };
}

function compileStatement(
  s: PlanStatement,
  columns: ColumnResolver,
  byTable: Map<string, LoadStatement[]>,
  view: GraphView,
  using: ResolvedUsing,
  stats: LoadStatistics,
  tableChain: Set<string>,
): LineStep {
  if (s.kind !== "load") return deleteStep(compileDelete(s, view, columns), stats);
  const steps: LineStep[] = [];
  for (const d of s.destinations) {
    try {
      if (d.kind === "vertex") steps.push(emitStep(compileVertexDestination(d, view, columns, using), stats));
      else if (d.kind === "edge") steps.push(emitStep(compileEdgeDestination(d, view, columns, using), stats));
      else steps.push(tempTableStep(compileTempTable(d, columns), byTable, view, stats, tableChain));
    } catch (err) {
      if (err instanceof LoadError && err.line === undefined && s.line !== undefined) throw new LoadError(err.message, s.line);
      throw err;
    }
  }
  return (row, batch) => {
    let held = true;
    for (let i = 0; i < steps.length; i++) if (!steps[i]!(row, batch)) held = false;
    return held;
  };
}

function emitStep(e: Emitter, stats: LoadStatistics): LineStep {
  const entry: ObjectStatistics = objectEntry(stats, e.group, e.typeName);
  return (row, batch) => e.emit(row, batch, entry) !== EmitOutcome.FailedCondition;
}

function deleteStep(e: DeleteEmitter, stats: LoadStatistics): LineStep {
  const entry = objectEntry(stats, e.group, e.typeName);
  return (row, batch) => e.emit(row, batch, entry) !== EmitOutcome.FailedCondition;
}

/** Rows put into a temp table flow at once through the statements that read the table. */
function tempTableStep(
  producer: TempTableProducer,
  byTable: Map<string, LoadStatement[]>,
  view: GraphView,
  stats: LoadStatistics,
  tableChain: Set<string>,
): LineStep {
  if (tableChain.has(producer.table)) throw new LoadError(`Temp table ${producer.table} feeds itself.`);
  const chain = new Set(tableChain).add(producer.table);
  const readers = (byTable.get(producer.table) ?? []).map((s) => {
    const using = resolveUsing(s.using);
    return compileStatement(s, new TableColumns(producer.table, producer.columns), byTable, view, using, stats, chain);
  });
  return (row, batch) => {
    const rows = producer.rows(row);
    if (rows === undefined) return false;
    for (const tokens of rows) {
      const tableRow: Row = { tokens, fileName: row.fileName };
      for (const read of readers) read(tableRow, batch);
    }
    return true;
  };
}
