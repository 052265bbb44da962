// The JSON forms of the schema that GET /gsqlserver/gsql/schema and /udtlist answer with, in
// the shape the interface's clients read (compat-notes "GSQL server HTTP"):
// {GraphName, VertexTypes:[{Name, PrimaryId, Attributes, Config}], EdgeTypes:[{Name,
// FromVertexTypeName, ToVertexTypeName, IsDirected, EdgePairs, Attributes, Config}]}.
import type { AttrType, AttributeDef, DatabaseSchema, EdgeType, GraphSchema, TupleType, VertexType } from "../../runtime-wasm/schema/types.js";
import { graphEdgeTypes, graphVertexTypes } from "./exec/ls.js";
import { defaultText } from "./exec/schema-lines.js";

export interface AttributeTypeJson {
  Name: string;
  ValueTypeName?: string;
  KeyTypeName?: string;
  ValueTypeTupleName?: string;
  KeyTypeTupleName?: string;
  TupleTypeName?: string;
  FixedSize?: number;
}

function elementName(t: AttrType): string {
  return t.kind === "scalar" ? t.name : t.kind === "tuple" ? "UDT" : t.kind.toUpperCase();
}

export function attributeTypeJson(t: AttrType): AttributeTypeJson {
  switch (t.kind) {
    case "scalar":
      return t.name === "FIXED_BINARY" ? { Name: "FIXED_BINARY", FixedSize: t.size ?? 0 } : { Name: t.name };
    case "list":
    case "set": {
      const out: AttributeTypeJson = { Name: t.kind.toUpperCase(), ValueTypeName: elementName(t.element) };
      if (t.element.kind === "tuple") out.ValueTypeTupleName = t.element.name;
      return out;
    }
    case "map": {
      const out: AttributeTypeJson = { Name: "MAP", KeyTypeName: elementName(t.key), ValueTypeName: elementName(t.value) };
      if (t.value.kind === "tuple") out.ValueTypeTupleName = t.value.name;
      return out;
    }
    case "tuple":
      return { Name: "UDT", TupleTypeName: t.name };
  }
}

function attributeJson(a: AttributeDef) {
  const out: Record<string, unknown> = { AttributeName: a.name, AttributeType: attributeTypeJson(a.type) };
  if (a.default !== undefined) out.DefaultValue = defaultText(a.default, a.type).replace(/^"(.*)"$/, "$1");
  return out;
}

export function vertexTypeJson(v: VertexType) {
  return {
    Name: v.name,
    PrimaryId: {
      AttributeName: v.primaryId.name,
      AttributeType: { Name: v.primaryId.type },
      PrimaryIdAsAttribute: v.primaryIdAsAttribute,
    },
    Attributes: v.attributes.map(attributeJson),
    Config: { STATS: v.stats, PRIMARY_ID_AS_ATTRIBUTE: v.primaryIdAsAttribute },
    IsLocal: v.graph !== undefined,
  };
}

export function edgeTypeJson(e: EdgeType) {
  const first = e.pairs[0];
  const single = e.pairs.length === 1;
  const config: Record<string, string> = {};
  const reverse = e.reverseEdge ?? e.reverseOf;
  if (reverse) config.REVERSE_EDGE = reverse;
  return {
    Name: e.name,
    // With several FROM/TO pairs there is no single endpoint type: "*", and EdgePairs lists them.
    FromVertexTypeName: single && first ? first.from : "*",
    ToVertexTypeName: single && first ? first.to : "*",
    IsDirected: e.directed,
    EdgePairs: e.pairs.map((p) => ({ From: p.from, To: p.to })),
    Attributes: e.attributes.map(attributeJson),
    DiscriminatorCount: e.discriminator.length,
    Config: config,
    IsLocal: e.graph !== undefined,
  };
}

/** The `results` of GET /gsqlserver/gsql/schema?graph=g. */
export function graphSchemaJson(schema: DatabaseSchema, g: GraphSchema) {
  return {
    GraphName: g.name,
    VertexTypes: graphVertexTypes(schema, g).map(vertexTypeJson),
    EdgeTypes: graphEdgeTypes(schema, g).map(edgeTypeJson),
    Version: g.version,
  };
}

/** The `results` of GET /gsqlserver/gsql/udtlist: every tuple type with its fields. */
export function tupleListJson(tuples: readonly TupleType[]) {
  return tuples.map((t) => ({
    name: t.name,
    fields: t.fields.map((f) => {
      const field: Record<string, unknown> = { fieldName: f.name, fieldType: f.type.kind === "scalar" ? f.type.name : elementName(f.type) };
      if (f.size !== undefined) field.length = f.size;
      return field;
    }),
  }));
}
