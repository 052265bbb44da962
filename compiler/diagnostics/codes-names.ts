// Diagnostic codes 2xxx: name resolution (unknown or duplicate graphs, types, attributes, variables, accumulators, queries).
// Entries: GSQL2nnn: { severity: "error" | "warning", message: "template with {placeholders}" }.
export const NAME_CODES = {
} as const;
