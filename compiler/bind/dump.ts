// A stable text form of bound trees for golden tests and `gsqlc bound`: JSON with types in
// GSQL spelling, ranges as line:col, built-ins by id, and declarations written in full
// where they are declared and as `name#id` where they are used.
import type { BoundQuery } from "./bound.js";
import { typeToString, type GType } from "./types.js";

/** Keys whose object value is a declaration introduced right there (printed in full). */
const DECLARING = new Set(["decl:declVar", "decl:declAccum", "decl:declFile", "decl:declException", "loopVar:", "loopVars:",
  "alias:source", "target:hop", "edgeAlias:hop"]);

function isType(v: unknown): v is GType {
  return typeof v === "object" && v !== null && "kind" in v && typeof (v as { kind: unknown }).kind === "string" &&
    ["primitive", "vertex", "edge", "json", "tuple", "collection", "map", "accum", "vertexSet", "file", "entry", "void", "error"]
      .includes((v as { kind: string }).kind) && !("range" in v);
}

function isDecl(v: unknown): v is { declKind: string; name: string; id: number } {
  return typeof v === "object" && v !== null && "declKind" in v;
}

export function dumpBound(q: BoundQuery): string {
  const seen = new Set<object>();
  const replacer = function (this: Record<string, unknown>, key: string, value: unknown): unknown {
    if (typeof value === "bigint") return `${value}n`;
    if (key === "range" && typeof value === "object" && value !== null && "start" in value) {
      const r = value as { start: { line: number; column: number } };
      return `${r.start.line}:${r.start.column}`;
    }
    if (key === "fn" || key === "method") return (value as { id: string }).id;
    if (key === "query" || key === "calls" || key === "signature") {
      if (Array.isArray(value)) return value.map((s: { name: string }) => `query ${s.name}`);
      if (key === "query") return `query ${(value as { name: string }).name}`;
    }
    if (isType(value) && key !== "") return typeToString(value);
    if (isDecl(value)) {
      const holder = this as { kind?: string; edges?: unknown; alias?: unknown };
      const context = holder.kind ?? ("edges" in holder ? "hop" : "alias" in holder && key === "alias" && !("stmts" in holder) ? "source" : "");
      const declaring = DECLARING.has(`${key}:${context}`) || (key === "" && false) || Array.isArray(this) && false;
      if (!declaring || seen.has(value)) return `${value.declKind} ${value.name}#${value.id}`;
      seen.add(value);
    }
    return value;
  };
  // Parameters, accumulators and vertex sets are listed once at the top, in full.
  const header = {
    name: q.name, graph: q.graph, syntax: q.syntax, syntaxSource: q.syntaxSource,
    params: q.params.map((p) => ({ name: `${p.name}#${p.id}`, type: typeToString(p.type), ...(p.default ? { default: p.default } : {}) })),
    returns: q.returns ? typeToString(q.returns) : undefined,
    accums: q.accums.map((a) => `${a.scope === "global" ? "@@" : "@"}${a.name}#${a.id}: ${typeToString(a.type)}`),
    vertexSets: q.vertexSets.map((v) => `${v.name}#${v.id}: ${v.vertexTypes ? v.vertexTypes.join("|") : "ANY"}`),
    calls: q.calls,
    body: q.body,
  };
  return JSON.stringify(header, replacer, 1).replace(/\n\s*/g, (m) => "\n" + " ".repeat(Math.max(0, m.length - 2)));
}
