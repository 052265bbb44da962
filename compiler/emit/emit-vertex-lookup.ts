// A vertex by its primary id, inside the module: `to_vertex(id, "T")` and
// `to_vertex_set(ids, "T")`. The store keeps, per vertex type, an open-addressing hash of
// primary ids in the graph memory (runtime-wasm/store/layout.ts VT.ID_HASH); the generated
// code probes the pinned snapshot's hash exactly as the store does
// (runtime-wasm/store/tables/id-probe.ts): same hash functions, linear probing, deleted
// entries skipped. Numeric ids (INT, UINT, DATETIME) compare their 64 bits; STRING ids
// compare the stored hash first, then the bytes of the stored text.
import { NumOp, FormatKind, RuntimeError } from "../../runtime-wasm/query/abi.js";
import { DELETED_ENTRY, EMPTY_ENTRY, ID_HASH_ENTRY_WORDS, VERTEX_BLOCK_MASK, VERTEX_BLOCK_SHIFT, VT } from "../../runtime-wasm/store/layout.js";
import type { IrExpr, IrType } from "../ir/ir.js";
import type { EmitContext } from "./context.js";
import { wasmType } from "./wasm-types.js";
import { emitExpr } from "./emit-expr.js";
import { forEachElement } from "./emit-collections.js";
import { vertexTypeHeader } from "./emit-graph.js";
import { formatToString, numOp, strAddress, strConst, strEq, strFromRecord, strLength, takeHostText } from "./emit-strings.js";
import { vsetAdd, vsetNew } from "./emit-vset.js";
import type { Expr, FunctionScope } from "./module.js";
import { UnsupportedError, type QueryEmitter } from "./query-emitter.js";

/** `to_vertex(id, "T")`: the vertex's id, or the run fails with "the vertex does not exist". */
export function toVertex(qe: QueryEmitter, id: IrExpr, typeArg: IrExpr): Expr {
  const m = qe.m;
  const v = qe.f.local("i32", "tv");
  const type = typeLookup(qe, typeArg);
  const key = qe.f.local(wasmType(id.type), "tvkey");
  return m.block(
    null,
    [...type.init, key.set(emitExpr(qe, id)), v.set(type.lookup(() => key.get(), id.type)), m.if(m.lt("i32", v.get(), m.i32(0)), qe.cx.host("fail", [m.i32(RuntimeError.NoSuchVertex)])), v.get()],
    "i32",
  );
}

/** How to_vertex / to_vertex_set find ids in the type they are given. */
interface TypeLookup {
  /** Runs first: finds the type (a name given at run time; nothing for a constant). */
  init: Expr[];
  /** The vid of the id `key` (of type `keyType`) in the type, or -1. */
  lookup(key: () => Expr, keyType: IrType): Expr;
  /** The type's name as a string value (for the warning of to_vertex_set). */
  name(): Expr;
}

/**
 * The type argument of to_vertex / to_vertex_set: a constant naming a vertex type, or a STRING
 * expression whose value is looked for among the graph's vertex types once (the run fails with
 * "the vertex type does not exist" when none has that name).
 */
function typeLookup(qe: QueryEmitter, typeArg: IrExpr): TypeLookup {
  const cx = qe.cx;
  const m = qe.m;
  if (typeArg.e === "const" && typeof typeArg.value === "string") {
    const typeName = typeArg.value;
    const one = lookupFunction(qe, typeName);
    return { init: [], lookup: (key, keyType) => m.call(one.name, [keyOf(cx, key(), keyType, one.numeric)], "i32"), name: () => strConst(cx, typeName) };
  }
  if (!(typeArg.type.t === "scalar" && typeArg.type.name === "STRING")) throw new UnsupportedError(`a vertex type given as a ${typeArg.type.t === "scalar" ? typeArg.type.name : typeArg.type.t}`);
  // Types with a composite key cannot be named: to_vertex takes one id.
  const types = [...qe.view.vertexByName.values()].filter((t) => t.compositeKey === undefined);
  const lookups = types.map((t) => lookupFunction(qe, t.name));
  const name = qe.f.local("i64", "tvtype");
  const which = qe.f.local("i32", "tvwhich");
  let pick: Expr = m.i32(-1);
  for (let i = types.length - 1; i >= 0; i--) pick = m.if(strEq(cx, name.get(), strConst(cx, types[i]!.name)), m.i32(i), pick);
  return {
    init: [name.set(emitExpr(qe, typeArg)), which.set(pick), m.if(m.lt("i32", which.get(), m.i32(0)), cx.host("fail", [m.i32(RuntimeError.NoSuchVertexType)]))],
    lookup: (key, keyType) => {
      let found: Expr = m.i32(-1);
      for (let i = lookups.length - 1; i >= 0; i--) found = m.if(m.eq("i32", which.get(), m.i32(i)), m.call(lookups[i]!.name, [keyOf(cx, key(), keyType, lookups[i]!.numeric)], "i32"), found);
      return found;
    },
    name: () => name.get(),
  };
}

/**
 * `to_vertex_set(ids, "T")`: the vertices of the ids that exist; unknown ids are skipped and
 * counted in a warning the response carries as its message (with `error: false`).
 */
export function toVertexSet(qe: QueryEmitter, ids: IrExpr, typeArg: IrExpr): Expr {
  const m = qe.m;
  const elem = elementType(ids.type);
  const set = qe.f.local("i32", "tvs");
  const v = qe.f.local("i32", "tv");
  const invalid = qe.f.local("i32", "invalid");
  // A type name given at run time: an unknown one fails the run before any id is looked up.
  const type = typeLookup(qe, typeArg);
  return m.block(
    null,
    [
      ...type.init,
      set.set(vsetNew(qe.cx)),
      invalid.set(m.i32(0)),
      forEachElement(qe, ids, (element) => [
        v.set(type.lookup(element, elem)),
        m.if(m.ge("i32", v.get(), m.i32(0)), m.drop(vsetAdd(qe.cx, set.get(), v.get())), invalid.set(m.add("i32", invalid.get(), m.i32(1)))),
      ]),
      // the response's message: "Runtime Warning: N ids are invalid T vertex ids."
      m.if(invalid.get(), qe.cx.host("invalidVertexIds", [invalid.get(), strAddress(qe.cx, type.name()), strLength(qe.cx, type.name())])),
      set.get(),
    ],
    "i32",
  );
}

/**
 * `SelectVertex(path, $col, T, sep, header)`: the vertices whose ids are in a column of a
 * delimited file; T is a vertex type or `$n` / `$"name"`, a column naming each row's type.
 * The host reads the file (file-rows.ts); the module looks every id up like to_vertex_set,
 * skipping (and counting in the same warning) ids and type names that name no vertex.
 */
export function selectVertex(qe: QueryEmitter, args: IrExpr[]): Expr {
  const [path, column, typeArg, separator, header] = args as [IrExpr, IrExpr, IrExpr, IrExpr, IrExpr];
  if (!(path.type.t === "scalar" && path.type.name === "STRING")) throw new UnsupportedError("SelectVertex() of a FILE object (give the path as a STRING)");
  if (column.e !== "const" || typeof column.value !== "string" || typeArg.e !== "const" || typeof typeArg.value !== "string") throw new Error("SelectVertex columns are bound as constants");
  const cx = qe.cx;
  const m = qe.m;
  const typeColumn = typeArg.value.startsWith("$") ? typeArg.value : "";
  const types = typeColumn === "" ? [typeArg.value] : [...qe.view.vertexByName.values()].filter((t) => t.compositeKey === undefined).map((t) => t.name);
  const lookups = types.map((typeName) => ({ typeName, ...lookupFunction(qe, typeName) }));
  const set = qe.f.local("i32", "sv");
  const rows = qe.f.local("i32", "rows");
  const row = qe.f.local("i32", "row");
  const id = qe.f.local("i64", "id");
  const typeName = qe.f.local("i64", "type");
  const v = qe.f.local("i32", "v");
  const invalid = qe.f.local("i32", "invalid");
  const text = (x: IrExpr) => emitExpr(qe, x);
  const pair = (x: () => Expr): Expr[] => [strAddress(cx, x()), strLength(cx, x())];
  const pathValue = qe.f.local("i64", "path");
  const sepValue = qe.f.local("i64", "sep");
  const constant = (value: string) => () => strConst(cx, value);
  const find = (l: (typeof lookups)[number]) => m.call(l.name, [keyOf(cx, id.get(), { t: "scalar", name: "STRING" }, l.numeric)], "i32");
  // with a type column: the first type whose name the row's cell equals, else -1
  let resolve: Expr = m.i32(-1);
  for (let i = lookups.length - 1; i >= 0; i--) resolve = typeColumn === "" ? find(lookups[i]) : m.if(strEq(cx, typeName.get(), strConst(cx, lookups[i].typeName)), find(lookups[i]), resolve);
  // with a type column the warning names no type
  const warnType = typeColumn === "" ? typeArg.value : "";
  return m.block(
    null,
    [
      pathValue.set(text(path)),
      sepValue.set(text(separator)),
      rows.set(cx.host("fileRows", [...pair(() => pathValue.get()), ...pair(constant(column.value)), ...(typeColumn === "" ? [m.i32(0), m.i32(0)] : pair(constant(typeColumn))), ...pair(() => sepValue.get()), text(header)])),
      set.set(vsetNew(cx)),
      invalid.set(m.i32(0)),
      qe.f.forRange(row, m.i32(0), rows.get(), () => [
        id.set(takeHostText(cx, cx.host("fileCell", [row.get(), m.i32(0)]))),
        ...(typeColumn === "" ? [] : [typeName.set(takeHostText(cx, cx.host("fileCell", [row.get(), m.i32(1)])))]),
        v.set(resolve),
        m.if(m.ge("i32", v.get(), m.i32(0)), m.drop(vsetAdd(cx, set.get(), v.get())), invalid.set(m.add("i32", invalid.get(), m.i32(1)))),
      ]),
      m.if(invalid.get(), cx.host("invalidVertexIds", [invalid.get(), ...(warnType === "" ? [m.i32(0), m.i32(0)] : pair(constant(warnType)))])),
      set.get(),
    ],
    "i32",
  );
}

function elementType(t: IrType): IrType {
  if (t.t === "accum" && (t.accum.a === "list" || t.accum.a === "set" || t.accum.a === "bag")) return t.accum.elem;
  throw new UnsupportedError("to_vertex_set of anything but a set, bag or list of ids");
}

/** The id as the hash keys it: an i64 number, or an i64 string value (address, length). */
function keyOf(cx: EmitContext, value: Expr, t: IrType, numeric: boolean): Expr {
  const isText = t.t === "scalar" && t.name === "STRING";
  if (numeric) return isText ? numOp(cx, NumOp.StrToInt, value) : value;
  if (isText) return value;
  if (t.t === "scalar" && (t.name === "INT" || t.name === "UINT")) return formatToString(cx, t.name === "INT" ? FormatKind.Int : FormatKind.Uint, value);
  throw new UnsupportedError(`a ${t.t === "scalar" ? t.name : t.t} vertex id`);
}

/** The per-type lookup helper: (key: i64) -> vid, or -1 when no such vertex. */
function lookupFunction(qe: QueryEmitter, typeName: string): { name: string; numeric: boolean } {
  const type = qe.view.vertexType(typeName);
  if (type === undefined) throw new UnsupportedError(`to_vertex of the unknown vertex type ${typeName}`);
  if (type.compositeKey !== undefined) throw new UnsupportedError("to_vertex of a vertex type with a composite key");
  const numeric = type.primaryId.type !== "STRING";
  const cx = qe.cx;
  const m = cx.m;
  const name = cx.helper(`vertex_by_id_${type.key}`.replace(/[^A-Za-z0-9_]/g, "_"), [{ name: "key", type: "i64" }], "i32", (f) => {
    const key = f.param(0);
    const h = f.local("i32", "h");
    const base = f.local("i32", "base");
    const mask = f.local("i32", "mask");
    const slot = f.local("i32", "slot");
    const at = f.local("i32", "at");
    const entry = f.local("i32", "e");
    const hash = f.local("i32", "hash");
    const [a, b] = numeric ? [m.convert("i64", "i32", key.get()), m.convert("i64", "i32", m.shr("i64", key.get(), m.i64(32), true))] : [hash.get(), undefined];
    const matches = numeric
      ? m.and("i32", m.eq("i32", m.load("i32", at.get(), 4), a), m.eq("i32", m.load("i32", at.get(), 8), b!))
      : m.and("i32", m.eq("i32", m.load("i32", at.get(), 4), hash.get()), m.ne("i32", entry.get(), m.i32(DELETED_ENTRY | 0)));
    const found = numeric ? m.ne("i32", entry.get(), m.i32(DELETED_ENTRY | 0)) : strEq(cx, strFromRecord(cx, m.load("i32", at.get(), 8)), key.get());
    const probe = f.label("probe");
    // a fresh node per use: Binaryen's passes rewrite nodes in place
    const none = () => m.return(m.i32(-1));
    return [
      h.set(vertexTypeHeader(cx, type.key)),
      m.if(m.eqz("i32", h.get()), none()),
      mask.set(m.sub("i32", m.load("i32", h.get(), VT.ID_HASH_CAPACITY), m.i32(1))),
      m.if(m.lt("i32", mask.get(), m.i32(0)), none()),
      base.set(m.load("i32", h.get(), VT.ID_HASH)),
      hash.set(numeric ? hashHalves(cx, f, m.convert("i64", "i32", key.get()), m.convert("i64", "i32", m.shr("i64", key.get(), m.i64(32), true))) : hashBytes(cx, f, key.get())),
      slot.set(m.and("i32", hash.get(), mask.get())),
      m.loop(
        probe,
        m.block(null, [
          at.set(m.add("i32", base.get(), m.mul("i32", slot.get(), m.i32(ID_HASH_ENTRY_WORDS * 4)))),
          entry.set(m.load("i32", at.get())),
          m.if(m.eq("i32", entry.get(), m.i32(EMPTY_ENTRY | 0)), none()),
          m.if(matches, m.if(found, m.return(vidOf(cx, h.get(), entry.get(), entry.get())))),
          slot.set(m.and("i32", m.add("i32", slot.get(), m.i32(1)), mask.get())),
          m.br(probe),
        ]),
      ),
      m.unreachable(),
    ];
  });
  return { name, numeric };
}

/** vid of local slot `local` of the type whose header is `h` (blocks table, then the offset). */
function vidOf(cx: EmitContext, h: Expr, local: Expr, localAgain: Expr): Expr {
  const m = cx.m;
  const block = m.load("i32", m.add("i32", m.load("i32", h, VT.BLOCKS), m.shl("i32", m.shr("i32", local, m.i32(VERTEX_BLOCK_SHIFT), true), m.i32(2))));
  return m.or("i32", m.shl("i32", block, m.i32(VERTEX_BLOCK_SHIFT)), m.and("i32", localAgain, m.i32(VERTEX_BLOCK_MASK)));
}

/** layout.ts hashIdHalves. */
function hashHalves(cx: EmitContext, f: FunctionScope, low: Expr, high: Expr): Expr {
  const m = cx.m;
  const x = f.local("i32", "hx");
  return m.block(
    null,
    [
      x.set(m.mul("i32", m.xor("i32", low, m.mul("i32", high, m.i32(0x85ebca6b | 0))), m.i32(0x9e3779b1 | 0))),
      x.set(m.xor("i32", x.get(), m.shr("i32", x.get(), m.i32(15), true))),
      x.set(m.mul("i32", x.get(), m.i32(0x2c1b3c6d))),
      x.set(m.xor("i32", x.get(), m.shr("i32", x.get(), m.i32(12), true))),
      x.get(),
    ],
    "i32",
  );
}

/** layout.ts hashIdBytes over a string value's UTF-8 bytes. */
function hashBytes(cx: EmitContext, f: FunctionScope, s: Expr): Expr {
  const m = cx.m;
  const p = f.local("i32", "p");
  const end = f.local("i32", "end");
  const x = f.local("i32", "fnv");
  const str = f.local("i64", "s");
  const loop = f.label("fnv");
  const done = f.label("fnv_done");
  return m.block(
    null,
    [
      str.set(s),
      p.set(strAddress(cx, str.get())),
      end.set(m.add("i32", p.get(), strLength(cx, str.get()))),
      x.set(m.i32(0x811c9dc5 | 0)),
      m.block(done, [
        m.loop(
          loop,
          m.block(null, [
            m.brIf(done, m.ge("i32", p.get(), end.get(), true)),
            x.set(m.mul("i32", m.xor("i32", x.get(), m.loadNarrow("i32", 8, p.get())), m.i32(0x01000193))),
            p.set(m.add("i32", p.get(), m.i32(1))),
            m.br(loop),
          ]),
        ),
      ]),
      hashHalves(cx, f, x.get(), m.i32(0)),
    ],
    "i32",
  );
}
