// Type expressions as written: base types (with the sizes and options DDL allows),
// VERTEX<T>, collections, anonymous tuples, user tuple names and accumulator types.
import type { AstIdent, AstNodeBase } from "./node.js";
import type { AstExpr } from "./expressions.js";

export type AstBaseTypeName =
  | "INT" | "UINT" | "FLOAT" | "DOUBLE" | "BOOL" | "STRING" | "DATETIME"
  | "VERTEX" | "EDGE" | "JSONOBJECT" | "JSONARRAY" | "FILE" | "FIXED_BINARY";

/** A built-in scalar type. Keywords are case-insensitive, so `name` is upper-cased. */
export interface AstBaseType extends AstNodeBase {
  kind: "BaseType";
  name: AstBaseTypeName;
  /** VERTEX<T> / EDGE<E>: the type argument. */
  typeArg?: AstIdent;
  /** INT(1), UINT(4), STRING(30) in tuple fields, FIXED_BINARY(n): the size as written. */
  size?: string;
  /** STRING COMPRESS [dictionary]. */
  compress?: { dictionary?: AstIdent };
}

/** SET<T>, BAG<T>, LIST<T>, MAP<K, V> (schema attributes and query parameters/variables). */
export interface AstCollectionType extends AstNodeBase {
  kind: "CollectionType";
  name: "SET" | "BAG" | "LIST" | "MAP";
  args: AstType[];
}

/** An anonymous tuple type `TUPLE<INT, STRING s>`: fields may be unnamed. */
export interface AstTupleType extends AstNodeBase {
  kind: "TupleType";
  fields: AstTupleField[];
}

/** A tuple field: `INT(1) f` or `f INT(1)` (both orders appear in real files). */
export interface AstTupleField extends AstNodeBase {
  kind: "TupleField";
  name?: AstIdent;
  type: AstType;
}

/** A user-defined type used by name (a TYPEDEF TUPLE, catalog or query level). */
export interface AstNamedType extends AstNodeBase {
  kind: "NamedType";
  name: AstIdent;
}

export type AstAccumTypeName =
  | "SumAccum" | "MinAccum" | "MaxAccum" | "AvgAccum" | "AndAccum" | "OrAccum"
  | "BitwiseAndAccum" | "BitwiseOrAccum" | "ListAccum" | "SetAccum" | "BagAccum"
  | "MapAccum" | "ArrayAccum" | "HeapAccum" | "GroupByAccum";

/**
 * An accumulator type. `name` is the canonical spelling; `spelling` is as written (keywords
 * are case-insensitive). Arguments by family:
 *  - Sum/Min/Max/List/Set/Bag/Array: `args` = [element type]
 *  - Map: `args` = [key type, value type]
 *  - Avg/And/Or: no args, or the element type as written (`OrAccum<BOOL>`);
 *    BitwiseAnd/Or: optional `width` (`BitwiseOrAccum<8>`) or element type (`<INT>`)
 *  - Heap: `args` = [tuple type], plus `heap` (capacity and sort keys)
 *  - GroupBy: `groupBy` = key fields then accumulator fields
 */
export interface AstAccumType extends AstNodeBase {
  kind: "AccumType";
  name: AstAccumTypeName;
  spelling: string;
  args: AstType[];
  width?: string;
  heap?: AstHeapOptions;
  groupBy?: AstTupleField[];
}

/** `HeapAccum<T>(capacity, f1 DESC, f2)`: capacity is optional (unbounded heap). */
export interface AstHeapOptions extends AstNodeBase {
  kind: "HeapOptions";
  capacity?: AstExpr;
  keys: AstHeapKey[];
}

/** One HeapAccum sort key: a tuple field and its order (ASC when not written). */
export interface AstHeapKey extends AstNodeBase {
  kind: "HeapKey";
  field: AstIdent;
  order: "ASC" | "DESC";
  explicitOrder: boolean;
}

export type AstType = AstBaseType | AstCollectionType | AstTupleType | AstNamedType | AstAccumType;
