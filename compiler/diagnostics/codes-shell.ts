// Diagnostic codes 5xxx: query lifecycle and shell commands.
// Entries: GSQL5nnn: { severity: "error" | "warning", message: "template with {placeholders}" }.
export const SHELL_CODES = {
} as const;
