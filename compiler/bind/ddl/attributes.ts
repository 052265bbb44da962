// Attribute types and DEFAULT values of DDL: a written type becomes a schema AttrType (or
// a diagnostic), and a DEFAULT literal becomes a value of that type.
import type { AttrType, AttrValue, DatabaseSchema, ScalarTypeName } from "../../../runtime-wasm/schema/types.js";
import type { DiagnosticLog } from "../../diagnostics/index.js";
import { parseDatetime } from "../../../runtime-wasm/values/datetime.js";
import type { DdlAttribute, DdlLiteral, DdlTypeSpec } from "./commands.js";

const SCALARS: readonly ScalarTypeName[] = ["INT", "UINT", "FLOAT", "DOUBLE", "BOOL", "STRING", "DATETIME", "FIXED_BINARY"];

/** Where a type is used decides what is allowed in it. */
export type TypeUse = "attribute" | "element" | "mapKey" | "tupleField" | "primaryId" | "discriminator";

const USE_NAMES: Record<TypeUse, string> = {
  attribute: "an attribute", element: "a LIST/SET element", mapKey: "a MAP key", tupleField: "a tuple field",
  primaryId: "a primary id", discriminator: "a discriminator",
};

const ALLOWED_SCALARS: Record<TypeUse, readonly string[]> = {
  attribute: SCALARS,
  // The reference documents INT, DOUBLE, STRING, DATETIME for elements; the other numbers
  // and BOOL are accepted too since storing them is no harder.
  element: ["INT", "UINT", "FLOAT", "DOUBLE", "BOOL", "STRING", "DATETIME"],
  mapKey: ["INT", "UINT", "STRING", "DATETIME"],
  tupleField: ["INT", "UINT", "FLOAT", "DOUBLE", "BOOL", "STRING", "DATETIME"],
  primaryId: ["STRING", "INT", "UINT", "DATETIME"],
  discriminator: ["INT", "UINT", "STRING", "DATETIME"],
};

/** Resolve a written type for `use`; undefined (after logging) when it is not allowed there. */
export function resolveAttrType(spec: DdlTypeSpec, use: TypeUse, schema: DatabaseSchema, log: DiagnosticLog): AttrType | undefined {
  switch (spec.kind) {
    case "scalar": {
      const name = spec.name.toUpperCase();
      if (!ALLOWED_SCALARS[use].includes(name)) {
        log.report("GSQL4007", spec.range, { use: USE_NAMES[use], type: spec.name });
        return undefined;
      }
      if (use === "tupleField" && spec.size !== undefined && (name === "INT" || name === "UINT") && ![1, 2, 4, 8].includes(spec.size)) {
        log.report("GSQL4007", spec.range, { use: USE_NAMES[use], type: `${name}(${spec.size}) (sizes are 1, 2, 4 or 8)` });
        return undefined;
      }
      if (spec.size !== undefined && !["INT", "UINT", "STRING", "FIXED_BINARY"].includes(name)) {
        log.report("GSQL4007", spec.range, { use: USE_NAMES[use], type: `${name}(${spec.size})` });
        return undefined;
      }
      if (name === "FIXED_BINARY" && (spec.size === undefined || spec.size <= 0)) {
        log.report("GSQL4007", spec.range, { use: USE_NAMES[use], type: "FIXED_BINARY needs a positive size" });
        return undefined;
      }
      const out: AttrType = { kind: "scalar", name: name as ScalarTypeName };
      if (spec.compress) out.compress = true;
      if (spec.size !== undefined) out.size = spec.size;
      return out;
    }
    case "list":
    case "set": {
      if (use !== "attribute") {
        log.report("GSQL4007", spec.range, { use: USE_NAMES[use], type: `${spec.kind.toUpperCase()}<...>` });
        return undefined;
      }
      const element = resolveAttrType(spec.element, "element", schema, log);
      return element && { kind: spec.kind, element };
    }
    case "map": {
      if (use !== "attribute") {
        log.report("GSQL4007", spec.range, { use: USE_NAMES[use], type: "MAP<...>" });
        return undefined;
      }
      const key = resolveAttrType(spec.key, "mapKey", schema, log);
      const value = resolveAttrType(spec.value, "element", schema, log);
      return key && value && { kind: "map", key, value };
    }
    case "named": {
      if (use !== "attribute" && use !== "element") {
        log.report("GSQL4007", spec.range, { use: USE_NAMES[use], type: spec.name });
        return undefined;
      }
      if (!schema.tuples.some((t) => t.name === spec.name)) {
        log.report("GSQL4006", spec.range, { name: spec.name });
        return undefined;
      }
      return { kind: "tuple", name: spec.name };
    }
  }
}

/** A DEFAULT literal converted to the attribute's type; undefined (after logging) when it does not fit. */
export function convertDefault(attr: DdlAttribute, type: AttrType, log: DiagnosticLog): AttrValue | undefined {
  const lit = attr.default!;
  if (type.kind !== "scalar") {
    log.report("GSQL4004", lit.range, { name: attr.name, reason: "only primitive types take a DEFAULT" });
    return undefined;
  }
  const fail = (why: string) => {
    log.report("GSQL4004", lit.range, { name: attr.name, reason: why });
    return undefined;
  };
  const text = lit.text;
  switch (type.name) {
    case "INT":
    case "UINT": {
      const t = lit.kind === "string" ? text.trim() : text;
      if (lit.kind === "bool" || !/^[-+]?\d+$/.test(t)) return fail(`"${text}" is not an integer`);
      const v = BigInt(t);
      if (type.name === "UINT" && (v < 0n || v > 18446744073709551615n)) return fail(`${text} is out of range for UINT`);
      if (type.name === "INT" && (v < -9223372036854775808n || v > 9223372036854775807n)) return fail(`${text} is out of range for INT`);
      return v;
    }
    case "FLOAT":
    case "DOUBLE": {
      const t = text.trim();
      if (lit.kind === "bool" || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return fail(`"${text}" is not a number`);
      return type.name === "FLOAT" ? Math.fround(Number(t)) : Number(t);
    }
    case "BOOL": {
      // Written quoted (DEFAULT "false"); bare TRUE/FALSE is accepted as well.
      const t = text.trim().toLowerCase();
      if (lit.kind === "number" || (t !== "true" && t !== "false")) return fail(`"${text}" is not true or false`);
      return t === "true";
    }
    case "STRING":
      if (lit.kind !== "string") return fail("a STRING default must be a quoted string");
      return text;
    case "DATETIME": {
      if (lit.kind === "bool") return fail(`"${text}" is not a DATETIME`);
      const v = parseDatetime(text);
      return v === undefined ? fail(`"${text}" is not a valid DATETIME`) : v;
    }
    case "FIXED_BINARY":
      return fail("FIXED_BINARY takes no DEFAULT");
  }
}

/** Convenience for callers that only need to know whether a literal is a well-formed default. */
export function literalText(lit: DdlLiteral): string {
  return lit.kind === "string" ? `"${lit.text}"` : lit.text;
}
