// A stable text form of bound trees for golden tests and dumps: JSON with types in GSQL
// spelling, ranges as line:col, built-ins by id, and each declaration written in full where
// it is declared and as `kind name#id` where it is used.
import type { BoundQuery } from "./bound.js";
import { typeToString, type GType } from "./types.js";

const TYPE_KINDS = new Set(["primitive", "vertex", "edge", "json", "tuple", "collection", "map", "accum", "vertexSet", "file", "entry", "void", "error"]);

function isType(v: object): v is GType {
  return "kind" in v && TYPE_KINDS.has((v as { kind: string }).kind) && !("range" in v);
}

type Decl = { declKind: string; name: string; id: number };

function isDecl(v: object): v is Decl {
  return "declKind" in v;
}

/** Where a declaration is introduced: (property name, kind of the object holding it). */
function declares(key: string, holderKind: string): boolean {
  if (key === "decl") return holderKind.startsWith("decl");
  return key === "loopVar" || key === "loopVars" || key === "edgeAlias" || (key === "target" && holderKind === "hop") ||
    (key === "alias" && holderKind === "source");
}

function ref(d: Decl): string {
  return `${d.declKind} ${d.name}#${d.id}`;
}

function plain(value: unknown, key: string, holderKind: string): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => plain(v, key, holderKind));
  if (key === "range" && "start" in value) {
    const r = value as { start: { line: number; column: number } };
    return `${r.start.line}:${r.start.column}`;
  }
  if (key === "fn" || key === "method") return (value as { id: string }).id;
  if (key === "query") return `query ${(value as { name: string }).name}`;
  if (isType(value)) return typeToString(value);
  if (isDecl(value)) {
    if (!declares(key, holderKind)) return ref(value);
    const out: Record<string, unknown> = { decl: ref(value) };
    for (const [k, v] of Object.entries(value)) {
      if (k === "declKind" || k === "name" || k === "id" || k === "range") continue;
      out[k] = plain(v, k, "decl");
    }
    return out;
  }
  const o = value as Record<string, unknown>;
  const kind = typeof o.kind === "string" ? o.kind : "edges" in o ? "hop" : "vertexSet" in o || "vertexTypes" in o || (key === "source") ? "source" : "";
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    out[k] = plain(v, k, kind);
  }
  return out;
}

/** The bound query as indented JSON text (one golden file per query). */
export function dumpBound(q: BoundQuery): string {
  const doc = {
    name: q.name, graph: q.graph, syntax: q.syntax, syntaxSource: q.syntaxSource,
    params: q.params.map((p) => ({ param: `${p.name}#${p.id}`, type: typeToString(p.type), ...(p.default ? { default: plain(p.default, "default", "") } : {}) })),
    ...(q.returns ? { returns: typeToString(q.returns) } : {}),
    accums: q.accums.map((a) => `${a.scope === "global" ? "@@" : "@"}${a.name}#${a.id}: ${typeToString(a.type)}`),
    vertexSets: q.vertexSets.map((v) => `${v.name}#${v.id}: ${v.vertexTypes ? v.vertexTypes.join("|") || "(none)" : "ANY"}`),
    calls: q.calls.map((c) => c.name),
    body: plain(q.body, "body", ""),
  };
  return JSON.stringify(doc, null, 1) + "\n";
}
