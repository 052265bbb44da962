// What a reader needs to turn names into the ordinals and column kinds of one schema version:
// built once per schema change and shared by every version published under it. Also yields
// the StoreLayout handed to code that reads memory directly.
import type { AttrType, DatabaseSchema, EdgeType, VertexType } from "../schema/types.js";
import { ColumnKind, LAYOUT_VERSION, VERTEX_BLOCK_SHIFT, type IdKind, type StoreLayout } from "./layout.js";
import type { Column } from "./tables/columns.js";
import { tupleTable, type TupleTable } from "./values/coerce.js";

export interface ReadAttribute {
  name: string;
  ordinal: number;
  kind: ColumnKind;
  type: AttrType;
}

export interface ReadVertexType {
  key: string;
  ordinal: number;
  def: VertexType;
  idKind: IdKind;
  attributes: ReadAttribute[];
  byName: Map<string, ReadAttribute>;
  /** Name under which the primary id reads as an attribute when no column holds it. */
  idAttribute?: string;
}

export interface ReadEdgeType {
  key: string;
  ordinal: number;
  def: EdgeType;
  directed: boolean;
  /** This key is the reverse view of a directed type. */
  reversed: boolean;
  entryBytes: 4 | 8;
  attributes: ReadAttribute[];
  byName: Map<string, ReadAttribute>;
}

export class ReadCatalog {
  readonly vertexByKey = new Map<string, ReadVertexType>();
  readonly vertexByOrdinal: (ReadVertexType | undefined)[] = [];
  readonly edgeByKey = new Map<string, ReadEdgeType>();
  readonly edgeByOrdinal: (ReadEdgeType | undefined)[] = [];
  readonly tuples: TupleTable;
  readonly layout: StoreLayout;

  constructor(readonly schema: DatabaseSchema) {
    this.tuples = tupleTable(schema.tuples);
    this.layout = { layoutVersion: LAYOUT_VERSION, vertexBlockShift: VERTEX_BLOCK_SHIFT, vertexTypes: [], edgeTypes: [] };
  }

  addVertexType(key: string, ordinal: number, def: VertexType, idKind: IdKind, columns: Column[]): void {
    const attributes = liveAttributes(columns, def.attributes);
    const byName = new Map(attributes.map((a) => [a.name, a]));
    const idAttribute = def.primaryIdAsAttribute && !byName.has(def.primaryId.name) ? def.primaryId.name : undefined;
    const t: ReadVertexType = { key, ordinal, def, idKind, attributes, byName, idAttribute };
    this.vertexByKey.set(key, t);
    this.vertexByOrdinal[ordinal] = t;
    this.layout.vertexTypes.push({ key, ordinal, idKind, attributes: attributes.map(({ name, ordinal: o, kind }) => ({ name, ordinal: o, kind })) });
  }

  addEdgeType(key: string, ordinal: number, def: EdgeType, directed: boolean, reversed: boolean, entryBytes: 4 | 8, columns: Column[], reverseOf?: number): void {
    const attributes = liveAttributes(columns, def.attributes);
    const t: ReadEdgeType = { key, ordinal, def, directed, reversed, entryBytes, attributes, byName: new Map(attributes.map((a) => [a.name, a])) };
    this.edgeByKey.set(key, t);
    this.edgeByOrdinal[ordinal] = t;
    this.layout.edgeTypes.push({
      key,
      ordinal,
      directed,
      ...(reverseOf !== undefined ? { reverseOf } : {}),
      entryBytes,
      attributes: attributes.map(({ name, ordinal: o, kind }) => ({ name, ordinal: o, kind })),
    });
  }
}

/** Live columns in the order the schema declares the attributes. */
function liveAttributes(columns: Column[], declared: { name: string }[]): ReadAttribute[] {
  const position = new Map(declared.map((a, i) => [a.name, i]));
  return columns
    .filter((c) => c.region !== null && position.has(c.name))
    .sort((a, b) => position.get(a.name)! - position.get(b.name)!)
    .map((c) => ({ name: c.name, ordinal: c.ordinal, kind: c.kind, type: c.def.type }));
}
