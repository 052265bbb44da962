// Diagnostic codes 5xxx: query lifecycle and shell commands.
// Entries: GSQL5nnn: { severity: "error" | "warning", message: "template with {placeholders}" }.
export const SHELL_CODES = {
  GSQL5001: { severity: "error", message: "INSTALL QUERY -OPTIMIZE takes no query names" },
  GSQL5002: { severity: "error", message: "the query '{name}' already exists in graph '{graph}'; use CREATE OR REPLACE" },
  GSQL5003: { severity: "error", message: "the {kind} '{name}' does not exist" },
  GSQL5004: { severity: "error", message: "this command needs a working graph: add FOR GRAPH or USE GRAPH first" },
  GSQL5005: { severity: "error", message: "the query '{name}' is called by {callers}; drop the caller first or together" },
} as const;
