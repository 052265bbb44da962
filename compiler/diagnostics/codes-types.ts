// Diagnostic codes 3xxx: type checking.
// Entries: GSQL3nnn: { severity: "error" | "warning", message: "template with {placeholders}" }.
export const TYPE_CODES = {
} as const;
