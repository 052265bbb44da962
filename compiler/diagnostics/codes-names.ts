// Diagnostic codes 2xxx: name resolution (unknown or duplicate graphs, types, attributes, variables, accumulators, queries).
// Entries: GSQL2nnn: { severity: "error" | "warning", message: "template with {placeholders}" }.
export const NAME_CODES = {
  GSQL2001: { severity: "error", message: "the graph '{name}' does not exist" },
  GSQL2002: { severity: "error", message: "the vertex type '{name}' does not exist in graph '{graph}'" },
  GSQL2003: { severity: "error", message: "the edge type '{name}' does not exist in graph '{graph}'" },
  GSQL2004: { severity: "error", message: "'{name}' is not an attribute of {owner}" },
  GSQL2005: { severity: "error", message: "'{name}' is not defined" },
  GSQL2006: { severity: "error", message: "the accumulator '{name}' is not declared" },
  GSQL2007: { severity: "error", message: "the tuple type '{name}' is not defined" },
  GSQL2009: { severity: "error", message: "{owner} has no method '{name}'" },
  GSQL2010: { severity: "error", message: "'{name}' is not a built-in function, a tuple type or a query of graph '{graph}' (a sub-query must be created before its caller)" },
  GSQL2011: { severity: "error", message: "'{name}' is already declared in this block" },
  GSQL2012: { severity: "error", message: "'{name}' is the primary id of {owner}, not an attribute (use WITH primary_id_as_attribute=\"true\" or PRIMARY KEY)" },
  GSQL2013: { severity: "error", message: "'{name}' is a {scope} accumulator; write it as '{spelling}'" },
  GSQL2014: { severity: "error", message: "the exception '{name}' is not declared" },
  GSQL2015: { severity: "error", message: "'{name}' is neither a vertex type nor an edge type of graph '{graph}'" },
  GSQL2016: { severity: "error", message: "'{name}' is not a field of tuple {tuple}" },
  GSQL2017: { severity: "error", message: "no graph: add FOR GRAPH or USE GRAPH first" },
  GSQL2018: { severity: "error", message: "'{name}' is a {actual}, not {expected}" },
  GSQL2019: { severity: "error", message: "'{name}' is not a vertex-set variable" },
} as const;
