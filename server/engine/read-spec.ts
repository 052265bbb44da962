// The text forms of the shared read/delete parameters (interface.md "Query-string
// parameters shared by graph-data reads and deletes") parsed into plain data:
//   select  a,b | -a,-b | _ | -_        (inclusion and exclusion cannot be mixed)
//   filter  attr<op>value,...           (ops = != > >= < <=; "quoted strings", \" escapes)
//   sort    a,-b                        (- means descending)
// Plain data so delete commands carrying them stay serialisable and deterministic.
import { invalidRequest } from "./engine-error.js";
import { clip } from "./clip-text.js";

export type SelectSpec =
  | { mode: "all" }
  | { mode: "none" }
  | { mode: "include"; names: string[] }
  | { mode: "exclude"; names: string[] };

export type FilterOp = "=" | "!=" | ">" | ">=" | "<" | "<=";

/** A literal as written: quoted (a string) or bare (number, boolean, or unquoted text). */
export interface FilterLiteral {
  quoted: boolean;
  text: string;
}

export interface FilterCondition {
  attribute: string;
  op: FilterOp;
  literal: FilterLiteral;
}

export interface SortKey {
  attribute: string;
  descending: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseSelect(text: string | undefined): SelectSpec {
  if (text === undefined) return { mode: "all" };
  const items = text.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) throw invalidRequest(`Invalid select parameter '${clip(text)}': empty attribute name.`);
  const excluded = items.filter((s) => s.startsWith("-")).map((s) => s.slice(1));
  const included = items.filter((s) => !s.startsWith("-"));
  if (excluded.length > 0 && included.length > 0) {
    throw invalidRequest(`Invalid select parameter '${clip(text)}': inclusion and exclusion of attributes cannot be mixed.`);
  }
  for (const name of [...excluded, ...included]) {
    if (name !== "_" && !NAME.test(name)) throw invalidRequest(`Invalid select parameter '${clip(text)}': '${clip(name)}' is not an attribute name.`);
  }
  if (included.includes("_")) return { mode: "all" };
  if (excluded.includes("_")) return { mode: "none" };
  return excluded.length > 0 ? { mode: "exclude", names: excluded } : { mode: "include", names: included };
}

export function parseSort(text: string | undefined): SortKey[] {
  if (text === undefined || text === "") return [];
  return text.split(",").map((item) => {
    const descending = item.startsWith("-");
    const attribute = descending ? item.slice(1) : item;
    if (!NAME.test(attribute)) throw invalidRequest(`Invalid sort parameter '${clip(text)}': '${clip(item)}' is not an attribute name.`);
    return { attribute, descending };
  });
}

export function parseFilter(text: string | undefined): FilterCondition[] {
  if (text === undefined || text === "") return [];
  const conditions: FilterCondition[] = [];
  let pos = 0;
  const fail = (why: string): never => {
    throw invalidRequest(`Invalid filter parameter '${clip(text)}' at character ${pos + 1}: ${why}.`);
  };
  while (pos <= text.length) {
    const nameMatch = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(pos, pos + 300));
    if (!nameMatch) fail("an attribute name was expected");
    const attribute = nameMatch![0];
    pos += attribute.length;
    const opMatch = /^(>=|<=|!=|=|>|<)/.exec(text.slice(pos, pos + 2));
    if (!opMatch) fail("one of the operators = != > >= < <= was expected");
    const op = opMatch![0] as FilterOp;
    pos += op.length;
    let literal: FilterLiteral;
    if (text[pos] === '"') {
      let value = "";
      pos++;
      for (;;) {
        if (pos >= text.length) fail("unterminated string value");
        const c = text[pos]!;
        if (c === '"') break;
        if (c === "\\" && pos + 1 < text.length) {
          value += text[pos + 1];
          pos += 2;
        } else {
          value += c;
          pos++;
        }
      }
      pos++;
      literal = { quoted: true, text: value };
    } else {
      const end = text.indexOf(",", pos);
      const value = text.slice(pos, end < 0 ? text.length : end);
      if (value === "") fail("a value was expected");
      pos += value.length;
      literal = { quoted: false, text: value };
    }
    conditions.push({ attribute, op, literal });
    if (pos === text.length) break;
    if (text[pos] !== ",") fail("',' was expected between conditions");
    pos++;
  }
  return conditions;
}
