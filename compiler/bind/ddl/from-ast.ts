// AST → DDL commands: reads the DDL statements of a script into the plain command model
// that apply.ts and schema-change.ts take. Only shapes are translated here; every semantic
// check happens when the command is applied.
import type {
  AstAttributeDef, AstCreateEdge, AstCreateGraph, AstCreateSchemaChangeJob, AstCreateVertex, AstDrop,
  AstEdgeDefinition, AstEdgePair, AstExpr, AstOption, AstSchemaChangeStatement, AstType, AstTypedefTuple,
  AstVertexDefinition,
} from "../../ast/index.js";
import type { DiagnosticLog } from "../../diagnostics/index.js";
import type {
  DdlAttribute, DdlCommand, DdlCreateEdge, DdlCreateVertex, DdlEdgePair, DdlLiteral, DdlOption,
  DdlSchemaChangeJob, DdlTypeSpec, SchemaChangeStatement,
} from "./commands.js";

export function typeSpecFromAst(t: AstType, log: DiagnosticLog): DdlTypeSpec | undefined {
  switch (t.kind) {
    case "BaseType": {
      const size = t.size !== undefined ? Number(t.size) : undefined;
      const spec: DdlTypeSpec = { kind: "scalar", name: t.name, range: t.range };
      if (size !== undefined) spec.size = size;
      if (t.compress) spec.compress = true;
      return spec;
    }
    case "CollectionType": {
      if (t.name === "MAP" && t.args.length === 2) {
        const key = typeSpecFromAst(t.args[0]!, log);
        const value = typeSpecFromAst(t.args[1]!, log);
        return key && value && { kind: "map", key, value, range: t.range };
      }
      if ((t.name === "LIST" || t.name === "SET") && t.args.length === 1) {
        const element = typeSpecFromAst(t.args[0]!, log);
        return element && { kind: t.name === "LIST" ? "list" : "set", element, range: t.range };
      }
      log.report("GSQL4007", t.range, { use: "an attribute", type: t.name });
      return undefined;
    }
    case "NamedType":
      return { kind: "named", name: t.name.name, range: t.range };
    case "TupleType":
      log.report("GSQL4007", t.range, { use: "an attribute", type: "an anonymous TUPLE (use TYPEDEF TUPLE)" });
      return undefined;
    case "AccumType":
      log.report("GSQL4007", t.range, { use: "an attribute", type: t.spelling });
      return undefined;
  }
}

/** A DEFAULT or option value: string, number (possibly negated) or TRUE/FALSE. */
export function literalFromAst(e: AstExpr): DdlLiteral | undefined {
  switch (e.kind) {
    case "StringLiteral": return { kind: "string", text: e.value, range: e.range };
    case "IntLiteral":
    case "RealLiteral": return { kind: "number", text: e.text, range: e.range };
    case "BoolLiteral": return { kind: "bool", text: e.value ? "true" : "false", range: e.range };
    case "Ident": return { kind: "string", text: e.name, range: e.range };
    case "Unary":
      if (e.op === "-" && (e.operand.kind === "IntLiteral" || e.operand.kind === "RealLiteral")) {
        return { kind: "number", text: `-${e.operand.text}`, range: e.range };
      }
      return undefined;
    default: return undefined;
  }
}

function attributeFromAst(a: AstAttributeDef, log: DiagnosticLog): DdlAttribute | undefined {
  const type = typeSpecFromAst(a.type, log);
  if (!type) return undefined;
  const out: DdlAttribute = { name: a.name.name, type, range: a.range };
  if (a.primaryKey) out.primaryKey = true;
  if (a.default) {
    const lit = literalFromAst(a.default);
    if (!lit) {
      log.report("GSQL4004", a.default.range, { name: a.name.name, reason: "a DEFAULT must be a constant" });
      return undefined;
    }
    out.default = lit;
  }
  return out;
}

function attributesFromAst(attrs: AstAttributeDef[], log: DiagnosticLog): DdlAttribute[] | undefined {
  const out = attrs.map((a) => attributeFromAst(a, log));
  return out.every((a) => a !== undefined) ? (out as DdlAttribute[]) : undefined;
}

function optionsFromAst(opts: AstOption[], log: DiagnosticLog): DdlOption[] {
  return opts.flatMap((o) => {
    const lit = literalFromAst(o.value);
    if (!lit) {
      log.report("GSQL4011", o.range, { name: o.name.name });
      return [];
    }
    return [{ name: o.name.name, value: lit.text, range: o.range }];
  });
}

function vertexFromAst(d: AstVertexDefinition, log: DiagnosticLog): DdlCreateVertex | undefined {
  const attributes = attributesFromAst(d.attributes, log);
  let primaryId: DdlCreateVertex["primaryId"];
  if (d.primaryId) {
    const t = typeSpecFromAst(d.primaryId.type, log);
    if (!t) return undefined;
    primaryId = { name: d.primaryId.name.name, type: t, range: d.primaryId.range };
  }
  if (!attributes) return undefined;
  const out: DdlCreateVertex = {
    kind: "createVertex", name: { name: d.name.name, range: d.name.range }, attributes,
    options: optionsFromAst(d.options, log), range: d.range,
  };
  if (primaryId) out.primaryId = primaryId;
  if (d.compositeKey) {
    out.compositeKey = { names: d.compositeKey.map((n) => ({ name: n.name, range: n.range })), range: d.compositeKey[0]!.range };
  }
  return out;
}

function pairFromAst(p: AstEdgePair): DdlEdgePair {
  const names = (xs: AstEdgePair["from"]) => xs.map((x) => ({ name: x.kind === "Ident" ? x.name : "*", range: x.range }));
  return { from: names(p.from), to: names(p.to), range: p.range };
}

function edgeFromAst(d: AstEdgeDefinition, log: DiagnosticLog): DdlCreateEdge | undefined {
  const discriminator = attributesFromAst(d.discriminator, log);
  const attributes = attributesFromAst(d.attributes, log);
  if (!discriminator || !attributes) return undefined;
  return {
    kind: "createEdge", directed: d.directed, name: { name: d.name.name, range: d.name.range },
    pairs: d.pairs.map(pairFromAst), discriminator, attributes, options: optionsFromAst(d.options, log), range: d.range,
  };
}

export function tupleFromAst(t: AstTypedefTuple, log: DiagnosticLog): DdlCommand | undefined {
  const fields: { name: string; type: DdlTypeSpec; range: AstTypedefTuple["range"] }[] = [];
  for (const [i, f] of t.fields.entries()) {
    const type = typeSpecFromAst(f.type, log);
    if (!type) return undefined;
    fields.push({ name: f.name?.name ?? `field${i}`, type, range: f.range });
  }
  return { kind: "createTuple", name: { name: t.name.name, range: t.name.range }, fields, range: t.range };
}

/** The DDL command of a top-level statement, or undefined when it is not schema DDL (or malformed). */
export function ddlFromAst(s: AstCreateVertex | AstCreateEdge | AstCreateGraph | AstTypedefTuple | AstDrop,
  log: DiagnosticLog): DdlCommand | undefined {
  switch (s.kind) {
    case "CreateVertex": return vertexFromAst(s, log);
    case "CreateEdge": return edgeFromAst(s, log);
    case "TypedefTuple": return tupleFromAst(s, log);
    case "CreateGraph":
      return {
        kind: "createGraph", name: { name: s.name.name, range: s.name.range },
        types: s.allTypes ? "*" : s.types.map((n) => ({ name: n.name, range: n.range })), range: s.range,
      };
    case "Drop": {
      if (s.target === "ALL") return { kind: "dropAll", range: s.range };
      const what = ({ VERTEX: "vertex", EDGE: "edge", TUPLE: "tuple", GRAPH: "graph" } as const)[s.target as "VERTEX"];
      if (!what) return undefined;
      return { kind: "drop", what, names: s.names.map((n) => ({ name: n.name, range: n.range })), cascade: s.cascade, range: s.range };
    }
  }
}

function jobStatementFromAst(s: AstSchemaChangeStatement, log: DiagnosticLog): SchemaChangeStatement | undefined {
  const name = (n: { name: string; range: AstSchemaChangeStatement["range"] }) => ({ name: n.name, range: n.range });
  switch (s.kind) {
    case "AddVertex": {
      const def = vertexFromAst(s, log);
      return def && { kind: "addVertex", def, range: s.range };
    }
    case "AddEdge": {
      const def = edgeFromAst(s, log);
      return def && { kind: "addEdge", def, range: s.range };
    }
    case "AddToGraph":
      return { kind: "addToGraph", what: s.target === "VERTEX" ? "vertex" : "edge", names: s.names.map(name), graph: name(s.graph), range: s.range };
    case "DropInJob":
      if (s.target === "TUPLE") {
        log.report("GSQL4013", s.range, { reason: "tuples are dropped with DROP TUPLE, outside schema change jobs." });
        return undefined;
      }
      if (s.fromGraph) {
        return { kind: "dropFromGraph", what: s.target === "VERTEX" ? "vertex" : "edge", names: s.names.map(name), graph: name(s.fromGraph), range: s.range };
      }
      return { kind: "dropType", what: s.target === "VERTEX" ? "vertex" : "edge", names: s.names.map(name), range: s.range };
    case "AlterAddAttributes": {
      const attributes = attributesFromAst(s.attributes, log);
      return attributes && { kind: "addAttributes", what: s.target === "VERTEX" ? "vertex" : "edge", typeName: name(s.typeName), attributes, range: s.range };
    }
    case "AlterDropAttributes":
      return { kind: "dropAttributes", what: s.target === "VERTEX" ? "vertex" : "edge", typeName: name(s.typeName), names: s.names.map(name), range: s.range };
    case "AlterPairs":
      return { kind: s.action === "DROP" ? "dropPairs" : "addPairs", typeName: name(s.typeName), pairs: s.pairs.map(pairFromAst), range: s.range };
    case "AlterIndex":
      if (s.action === "DROP") return { kind: "dropIndex", typeName: name(s.typeName), index: name(s.index), range: s.range };
      if (s.attributes.length !== 1) {
        log.report("GSQL4013", s.range, { reason: "an index covers exactly one attribute." });
        return undefined;
      }
      return { kind: "addIndex", typeName: name(s.typeName), index: name(s.index), attribute: name(s.attributes[0]!), range: s.range };
  }
}

/** A schema-change job as a command; undefined when one of its statements is malformed. */
export function schemaChangeJobFromAst(job: AstCreateSchemaChangeJob, log: DiagnosticLog): DdlSchemaChangeJob | undefined {
  const statements = job.statements.map((s) => jobStatementFromAst(s, log));
  if (!statements.every((s) => s !== undefined)) return undefined;
  const out: DdlSchemaChangeJob = {
    kind: "schemaChangeJob", name: { name: job.name.name, range: job.name.range }, global: job.global,
    statements: statements as SchemaChangeStatement[], range: job.range,
  };
  if (job.graph) out.graph = { name: job.graph.name, range: job.graph.range };
  return out;
}
