// What the installer does once it knows the user's choices, shared by its interactive and
// flag forms: checking the choices against the graph's types, turning them into the GSQL of
// each query variant (and the helpers an algorithm needs), and the GET request printed for
// each query.
import { ALGORITHMS, algorithm, queryName, renderQuery, type Algorithm, type AttrSlot } from "./library.js";
import type { RenderChoices, Variant } from "./render.js";
import type { GraphTypes } from "./library-server.js";

/** One algorithm as the user configured it. */
export interface AlgorithmChoice {
  algorithm: Algorithm;
  vertexTypes: string[];
  edgeTypes: string[];
  weightAttribute?: string;
  /** Where the `_attr` variant writes, per slot name; absent: no `_attr` variant. */
  slots?: Record<string, string>;
}

export interface PlannedQuery {
  name: string;
  algorithm: Algorithm;
  variant: Variant;
  text: string;
  choice: AlgorithmChoice;
}

export const NUMERIC_TYPES = ["INT", "UINT", "FLOAT", "DOUBLE"];

/** `list` as comma-separated names; blank means every name of `all`. Unknown names are reported. */
export function pickNames(answer: string, all: string[], what: string): { names: string[] } | { error: string } {
  const wanted = answer.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (wanted.length === 0) return { names: [...all] };
  const unknown = wanted.filter((n) => !all.includes(n));
  const article = /^[aeiou]/i.test(what) ? "an" : "a";
  if (unknown.length) return { error: `${unknown.map((u) => `'${u}'`).join(", ")} ${unknown.length === 1 ? `is not ${article}` : "are not"} ${what}${unknown.length === 1 ? "" : "s"} of the graph; choose from ${all.join(", ")}.` };
  return { names: [...new Set(wanted)] };
}

/** Numeric attributes every one of the chosen edge types has (weight candidates). */
export function weightCandidates(types: GraphTypes, edgeTypes: string[]): string[] {
  const chosen = types.edgeTypes.filter((e) => edgeTypes.includes(e.name));
  if (chosen.length === 0) return [];
  return chosen[0].attributes.filter((a) => NUMERIC_TYPES.includes(a.type) && chosen.every((e) => e.attributes.some((b) => b.name === a.name && NUMERIC_TYPES.includes(b.type)))).map((a) => a.name);
}

/** Names that can fill a slot of the `_attr` variant, given what is chosen so far. */
export function slotCandidates(types: GraphTypes, slot: AttrSlot, vertexTypes: string[], slots: Record<string, string>): string[] {
  switch (slot.kind) {
    case "vertexAttr": {
      const chosen = types.vertexTypes.filter((v) => vertexTypes.includes(v.name));
      if (chosen.length === 0) return [];
      return chosen[0].attributes.filter((a) => slot.types.includes(a.type) && chosen.every((v) => v.attributes.some((b) => b.name === a.name && slot.types.includes(b.type)))).map((a) => a.name);
    }
    case "edgeType":
      // it must be able to join two vertices of the chosen types
      return types.edgeTypes.filter((e) => e.pairs.some((p) => vertexTypes.includes(p.from) && vertexTypes.includes(p.to))).map((e) => e.name);
    case "edgeAttr": {
      const edge = types.edgeTypes.find((e) => e.name === slots.edge);
      return edge ? edge.attributes.filter((a) => slot.types.includes(a.type)).map((a) => a.name) : [];
    }
  }
}

/** Problems with a choice (empty when it can be created). */
export function checkChoice(types: GraphTypes, c: AlgorithmChoice): string[] {
  const problems: string[] = [];
  const vertexNames = types.vertexTypes.map((v) => v.name);
  const edgeNames = types.edgeTypes.map((e) => e.name);
  if (c.vertexTypes.length === 0) problems.push("choose at least one vertex type");
  if (c.edgeTypes.length === 0) problems.push("choose at least one edge type");
  for (const v of c.vertexTypes) if (!vertexNames.includes(v)) problems.push(`'${v}' is not a vertex type of graph ${types.graph}`);
  for (const e of c.edgeTypes) if (!edgeNames.includes(e)) problems.push(`'${e}' is not an edge type of graph ${types.graph}`);
  if (c.algorithm.weighted) {
    if (!c.weightAttribute) problems.push(`${c.algorithm.name} needs the edge attribute holding the weights`);
    else if (!weightCandidates(types, c.edgeTypes).includes(c.weightAttribute)) problems.push(`'${c.weightAttribute}' is not a numeric attribute of every chosen edge type`);
  }
  if (c.slots) {
    for (const slot of c.algorithm.slots) {
      const value = c.slots[slot.name];
      if (!value) problems.push(`the _attr variant needs '${slot.name}' (${slot.prompt})`);
      else if (!slotCandidates(types, slot, c.vertexTypes, c.slots).includes(value)) problems.push(`'${value}' cannot be the ${slot.prompt}`);
    }
  }
  return problems;
}

function renderChoices(types: GraphTypes, c: AlgorithmChoice): RenderChoices {
  return {
    graph: types.graph,
    vertexTypes: c.vertexTypes,
    edgeTypes: c.edgeTypes.map((name) => ({ name, directed: types.edgeTypes.find((e) => e.name === name)?.directed ?? true })),
    ...(c.weightAttribute ? { weightAttribute: c.weightAttribute } : {}),
    ...(c.slots ? { slots: c.slots } : {}),
  };
}

/** The queries a choice creates: stream and file variants, attr when its slots are given, and helpers. */
export function planQueries(types: GraphTypes, c: AlgorithmChoice): PlannedQuery[] {
  const render = renderChoices(types, c);
  const variants = c.algorithm.variants.filter((v) => v !== "attr" || c.slots !== undefined);
  const own = variants.map((variant) => ({ name: queryName(c.algorithm, variant), algorithm: c.algorithm, variant, text: renderQuery(c.algorithm, variant, render), choice: c }));
  const helpers = c.algorithm.helpers.flatMap((h) => {
    const helper = algorithm(h);
    return planQueries(types, { ...c, algorithm: helper, slots: undefined });
  });
  return [...own, ...helpers];
}

/** The GET request of an installed query, with example parameter values. */
export function requestLine(restUrl: string, graph: string, q: PlannedQuery, authEnabled: boolean): string {
  const example = q.algorithm.example[q.variant] ?? "";
  const vertexType = q.choice.vertexTypes.length === 1 ? undefined : q.choice.vertexTypes[0];
  const params = example
    .split("&")
    .filter((p) => p !== "")
    .map((p) => {
      const [key, value] = p.split("=");
      if (value === "<vertex>") return vertexType === undefined ? `${key}=<vertex_id>` : `${key}=<vertex_id>&${key}.type=${vertexType}`;
      if (value === "<file>") return `${key}=/tmp/${q.name}.csv`;
      return p;
    })
    .join("&");
  const url = `${restUrl}/query/${graph}/${q.name}${params ? "?" + params : ""}`;
  return `curl -X GET '${url}'${authEnabled ? " -H 'Authorization: Bearer <ACCESS_TOKEN>'" : ""}`;
}

/** The menu entries, in order (helpers are not on it). */
export const MENU: Algorithm[] = ALGORITHMS.filter((a) => a.menu !== undefined);
