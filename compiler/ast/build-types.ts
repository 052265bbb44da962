// Builds type nodes: base types (sizes, COMPRESS, VERTEX<T>), collections, anonymous tuples,
// tuple names and accumulator types. The grammar reads accumulator type arguments
// generically; the checks of what each accumulator takes live here.
import type * as P from "../parse/generated/GSQLParser.js";
import type { AstBuilder } from "./build-ast.js";
import type {
  AstAccumType, AstAccumTypeName, AstBaseType, AstBaseTypeName, AstHeapKey, AstHeapOptions, AstTupleField, AstType,
} from "./types.js";

const ACCUM_NAMES: Record<string, AstAccumTypeName> = Object.fromEntries(
  (["SumAccum", "MinAccum", "MaxAccum", "AvgAccum", "AndAccum", "OrAccum", "BitwiseAndAccum", "BitwiseOrAccum",
    "ListAccum", "SetAccum", "BagAccum", "MapAccum", "ArrayAccum", "HeapAccum", "GroupByAccum"] as const)
    .map((name) => [name.toUpperCase(), name]));

export class TypeBuilder {
  constructor(private readonly b: AstBuilder) {}

  type(ctx: P.DataTypeContext): AstType {
    const base = ctx.baseType();
    if (base !== null) return this.baseType(base);
    const collection = ctx.collectionType();
    if (collection !== null) return this.collectionType(collection);
    const tuple = ctx.tupleType();
    if (tuple !== null) return this.tupleType(tuple);
    const accum = ctx.accumType();
    if (accum !== null) return this.accumType(accum);
    return { kind: "NamedType", name: this.b.ident(ctx.identifier()!), range: this.b.range(ctx) };
  }

  /** A variable's declared type (the `declType` rule: no accumulators). */
  declType(ctx: P.DeclTypeContext): AstType {
    const base = ctx.baseType();
    if (base !== null) return this.baseType(base);
    const collection = ctx.collectionType();
    if (collection !== null) return this.collectionType(collection);
    const tuple = ctx.tupleType();
    if (tuple !== null) return this.tupleType(tuple);
    return { kind: "NamedType", name: this.b.ident(ctx.identifier()!), range: this.b.range(ctx) };
  }

  baseType(ctx: P.BaseTypeContext): AstBaseType {
    const node: AstBaseType = {
      kind: "BaseType", name: this.b.word(ctx.getChild(0)!).toUpperCase() as AstBaseTypeName, range: this.b.range(ctx),
    };
    const size = ctx.INT_LIT();
    if (size !== null) node.size = this.b.word(size);
    const arg = ctx.identifier();
    if (ctx.COMPRESS() !== null) node.compress = arg !== null ? { dictionary: this.b.ident(arg) } : {};
    else if (arg !== null) node.typeArg = this.b.ident(arg);
    return node;
  }

  collectionType(ctx: P.CollectionTypeContext): AstType {
    const name = this.b.word(ctx.getChild(0)!).toUpperCase() as "SET" | "BAG" | "LIST" | "MAP";
    const args = ctx.dataType().map((t) => this.type(t));
    const wanted = name === "MAP" ? 2 : 1;
    if (args.length !== wanted) {
      this.b.report("GSQL1018", ctx, {
        type: name, expected: wanted === 2 ? "a key type and a value type" : "one element type", found: plural(args.length, "type argument"),
      });
    }
    return { kind: "CollectionType", name, args, range: this.b.range(ctx) };
  }

  tupleType(ctx: P.TupleTypeContext): AstType {
    return { kind: "TupleType", fields: ctx.tupleField().map((f) => this.tupleField(f)), range: this.b.range(ctx) };
  }

  tupleField(ctx: P.TupleFieldContext): AstTupleField {
    const fieldType = ctx.tupleFieldType();
    const type: AstType = fieldType.baseType() !== null
      ? this.baseType(fieldType.baseType()!) : this.collectionType(fieldType.collectionType()!);
    const field: AstTupleField = { kind: "TupleField", type, range: this.b.range(ctx) };
    const name = ctx.identifier();
    if (name !== null) field.name = this.b.ident(name);
    return field;
  }

  accumType(ctx: P.AccumTypeContext): AstAccumType {
    const nameCtx = ctx.accumTypeName();
    const spelling = this.b.word(nameCtx);
    const name = ACCUM_NAMES[spelling.toUpperCase()]!;
    const node: AstAccumType = { kind: "AccumType", name, spelling, args: [], range: this.b.range(ctx) };
    const argCtxs = ctx.accumTypeArg();
    const fields: AstTupleField[] = [];
    let width: string | undefined;
    let named = 0;
    for (const arg of argCtxs) {
      const type = arg.dataType();
      if (type === null) {
        width = this.b.word(arg.INT_LIT()!);
        continue;
      }
      const built = this.type(type);
      const fieldName = arg.identifier();
      const field: AstTupleField = { kind: "TupleField", type: built, range: this.b.range(arg) };
      if (fieldName !== null) {
        field.name = this.b.ident(fieldName);
        named++;
      }
      fields.push(field);
    }
    const heap = ctx.heapOptions();
    const problem = (expected: string, found: string) => this.b.report("GSQL1018", ctx, { type: spelling, expected, found });
    const types = fields.length;
    switch (name) {
      // Real files also spell the element type out (`OrAccum<BOOL>`, `AvgAccum<DOUBLE>`);
      // the binder checks that it is the one the accumulator folds.
      case "AvgAccum": case "AndAccum": case "OrAccum":
        if (argCtxs.length > 1 || width !== undefined || named > 0) {
          problem("no type argument or its element type, such as <BOOL>", plural(argCtxs.length, "argument"));
        }
        break;
      case "BitwiseAndAccum": case "BitwiseOrAccum":
        if (argCtxs.length > 1 || named > 0) problem("at most a bit width such as <8> or its element type <INT>", plural(argCtxs.length, "argument"));
        if (width !== undefined) node.width = width;
        break;
      case "MapAccum":
        if (types !== 2 || width !== undefined || named > 0) problem("a key type and a value type", plural(argCtxs.length, "argument"));
        break;
      case "GroupByAccum":
        if (types < 2 || named !== types || width !== undefined) {
          problem("named key types then named accumulators, such as <STRING k, SumAccum<INT> total>", describeArgs(types, named));
        }
        node.groupBy = fields;
        break;
      case "HeapAccum":
        if (types !== 1 || named > 0 || width !== undefined) problem("one tuple type", plural(argCtxs.length, "argument"));
        if (heap === null) problem("its size and sort fields in parentheses, such as (10, score DESC)", "none");
        break;
      default:
        if (types !== 1 || named > 0 || width !== undefined) problem("one type argument", plural(argCtxs.length, "argument"));
    }
    if (name !== "GroupByAccum") node.args = fields.map((f) => f.type);
    if (heap !== null) {
      if (name === "HeapAccum") node.heap = this.heapOptions(heap);
      else problem("no options in parentheses", "some");
    }
    return node;
  }

  /**
   * `(capacity, field [ASC|DESC], ...)`. The capacity is optional in GSQL, so the first
   * argument is the capacity unless it is a lone field name (only argument, or written with
   * ASC/DESC); a name followed by more arguments is read as a capacity parameter.
   */
  private heapOptions(ctx: P.HeapOptionsContext): AstHeapOptions {
    const args = ctx.heapArg();
    const node: AstHeapOptions = { kind: "HeapOptions", keys: [], range: this.b.range(ctx) };
    let rest = args;
    const first = args[0]!;
    const firstExpr = this.b.exprs.arith(first.arith());
    const firstIsKey = firstExpr.kind === "Ident" && (args.length === 1 || first.ASC() !== null || first.DESC() !== null);
    if (!firstIsKey) {
      node.capacity = firstExpr;
      rest = args.slice(1);
    }
    for (const arg of rest) {
      const expr = this.b.exprs.arith(arg.arith());
      if (expr.kind !== "Ident") {
        this.b.report("GSQL1001", arg, { found: `'${this.b.text(arg)}'`, expected: "a tuple field name" });
        continue;
      }
      const explicit = arg.ASC() !== null || arg.DESC() !== null;
      const key: AstHeapKey = {
        kind: "HeapKey", field: expr, order: arg.DESC() !== null ? "DESC" : "ASC", explicitOrder: explicit, range: this.b.range(arg),
      };
      node.keys.push(key);
    }
    if (node.keys.length === 0) this.b.report("GSQL1021", ctx);
    return node;
  }
}

function plural(count: number, noun: string): string {
  return count === 0 ? "none" : `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function describeArgs(types: number, named: number): string {
  return `${plural(types, "type")}, ${named} named`;
}
