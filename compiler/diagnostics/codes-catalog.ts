// Diagnostic codes 4xxx: DDL and catalog (schema definitions, schema-change and loading jobs).
// Entries: GSQL4nnn: { severity: "error" | "warning", message: "template with {placeholders}" }.
export const CATALOG_CODES = {
} as const;
