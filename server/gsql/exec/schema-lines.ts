// The one-line forms of schema items that `ls` and SHOW VERTEX/EDGE/GRAPH print
// (gsql-ddl-loading-shell §2, §3, §10.7), e.g.
//   - VERTEX Person(PRIMARY_ID name STRING, name STRING, age INT) WITH STATS="OUTDEGREE_BY_EDGETYPE"
//   - DIRECTED EDGE Friend(FROM Person, TO Person, w FLOAT) WITH REVERSE_EDGE="Also_Friend"
//   - Graph social(Person:v, Friend:e, Also_Friend:e)
import type { AttrType, AttrValue, AttributeDef, EdgeType, GraphSchema, TupleType, VertexType } from "../../../runtime-wasm/schema/types.js";
import { formatDatetime, formatDouble } from "../../../runtime-wasm/values/index.js";

export function attrTypeText(t: AttrType): string {
  switch (t.kind) {
    case "scalar":
      if (t.name === "FIXED_BINARY") return `FIXED_BINARY(${t.size ?? 0})`;
      return t.compress ? `${t.name} COMPRESS` : t.name;
    case "list":
      return `LIST<${attrTypeText(t.element)}>`;
    case "set":
      return `SET<${attrTypeText(t.element)}>`;
    case "map":
      return `MAP<${attrTypeText(t.key)}, ${attrTypeText(t.value)}>`;
    case "tuple":
      return t.name;
  }
}

/** A DEFAULT value as DDL text: strings and datetimes quoted, numbers and booleans bare. */
export function defaultText(value: AttrValue, type: AttrType): string {
  if (type.kind === "scalar") {
    switch (type.name) {
      case "STRING":
      case "FIXED_BINARY":
        return JSON.stringify(String(value));
      case "DATETIME":
        return `"${formatDatetime(value as number)}"`;
      case "BOOL":
        return `"${String(value)}"`;
      case "FLOAT":
      case "DOUBLE":
        return formatDouble(value as number);
      default:
        return String(value);
    }
  }
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

function attributeText(a: AttributeDef): string {
  const base = `${a.name} ${attrTypeText(a.type)}`;
  return a.default === undefined ? base : `${base} DEFAULT ${defaultText(a.default, a.type)}`;
}

/** `VERTEX Person(PRIMARY_ID id STRING, ...) WITH STATS="..."[, PRIMARY_ID_AS_ATTRIBUTE="true"]` */
export function vertexTypeText(v: VertexType): string {
  const parts: string[] = v.compositeKey
    ? [...v.attributes.map(attributeText), `PRIMARY KEY (${v.compositeKey.join(", ")})`]
    : [`PRIMARY_ID ${v.primaryId.name} ${v.primaryId.type}`, ...v.attributes.map(attributeText)];
  const options = [`STATS="${v.stats}"`];
  // A PRIMARY KEY attribute and primary_id_as_attribute are stored alike: the id is readable.
  if (v.primaryIdAsAttribute && !v.compositeKey) options.push(`PRIMARY_ID_AS_ATTRIBUTE="true"`);
  return `VERTEX ${v.name}(${parts.join(", ")}) WITH ${options.join(", ")}`;
}

/** `DIRECTED EDGE E(FROM A, TO B|FROM C, TO D, w FLOAT) WITH REVERSE_EDGE="rev"` */
export function edgeTypeText(e: EdgeType): string {
  const pairs = e.pairs.map((p) => `FROM ${p.from}, TO ${p.to}`).join("|");
  const discriminated = e.attributes.filter((a) => e.discriminator.includes(a.name));
  const others = e.attributes.filter((a) => !e.discriminator.includes(a.name));
  const parts = [pairs];
  if (discriminated.length > 0) parts.push(`DISCRIMINATOR(${discriminated.map(attributeText).join(", ")})`);
  parts.push(...others.map(attributeText));
  const head = `${e.directed ? "DIRECTED" : "UNDIRECTED"} EDGE ${e.name}(${parts.join(", ")})`;
  const reverse = e.reverseEdge ?? e.reverseOf;
  return reverse ? `${head} WITH REVERSE_EDGE="${reverse}"` : head;
}

/** `Graph g(A:v, B:v, E:e)` */
export function graphText(g: GraphSchema): string {
  const members = [...g.vertexTypes.map((n) => `${n}:v`), ...g.edgeTypes.map((n) => `${n}:e`)];
  return `Graph ${g.name}(${members.join(", ")})`;
}

/** `TYPEDEF TUPLE <f1 INT(1), f2 STRING(10)> T` */
export function tupleText(t: TupleType): string {
  const fields = t.fields.map((f) => {
    const type = attrTypeText(f.type);
    return `${f.name} ${f.size !== undefined ? `${type}(${f.size})` : type}`;
  });
  return `TYPEDEF TUPLE <${fields.join(", ")}> ${t.name}`;
}
