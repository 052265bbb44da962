// Turns an algorithm template (templates/*.gsql) into the GSQL text of one query variant for
// one graph. A template is ordinary GSQL with two additions:
//   - variant blocks: a line `//@ stream`, `//@ file`, `//@ attr` (or several names, e.g.
//     `//@ stream file`) starts lines kept only in those variants; `//@ all` ends the block;
//   - placeholders `${...}` for what the installer asks: the graph, the vertex and edge types,
//     the weight attribute and the attributes or edge type results are written to.
// Rendering is plain text substitution: the result is checked by the compiler like any query.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export type Variant = "stream" | "file" | "attr";
export const VARIANTS: readonly Variant[] = ["stream", "file", "attr"];

/** What the user chose for one algorithm on one graph. */
export interface RenderChoices {
  graph: string;
  /** Vertex types the algorithm runs on (at least one). */
  vertexTypes: string[];
  /** Edge types it follows (at least one), with whether each is directed. */
  edgeTypes: { name: string; directed: boolean }[];
  /** Edge attribute holding the weight (weighted algorithms). */
  weightAttribute?: string;
  /** Result attribute or edge type per slot name of the `_attr` variant. */
  slots?: Record<string, string>;
}

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TemplateError";
  }
}

const TEMPLATE_DIR = fileURLToPath(new URL("../../../tools/algorithms/templates/", import.meta.url));

/** The text of template `name` (e.g. "pageRank"). */
export function readTemplate(name: string): string {
  return readFileSync(TEMPLATE_DIR + name + ".gsql", "utf8");
}

/** The lines of `template` that belong to `variant`, with every placeholder filled. */
export function renderTemplate(template: string, variant: Variant, choices: RenderChoices): string {
  if (choices.vertexTypes.length === 0) throw new TemplateError("choose at least one vertex type");
  if (choices.edgeTypes.length === 0) throw new TemplateError("choose at least one edge type");
  const kept: string[] = [];
  let active: Set<string> | undefined;
  for (const line of template.split("\n")) {
    const marker = /^\s*\/\/@\s*(.*)$/.exec(line);
    if (marker) {
      const names = marker[1].trim().split(/\s+/);
      for (const n of names) if (n !== "all" && !VARIANTS.includes(n as Variant)) throw new TemplateError(`unknown variant '${n}' in a template`);
      active = names.includes("all") ? undefined : new Set(names);
      continue;
    }
    if (active === undefined || active.has(variant)) kept.push(line);
  }
  return kept.join("\n").replace(/\$\{([A-Za-z]+)(?::([A-Za-z_][A-Za-z0-9_]*))?\}/g, (_, key: string, arg: string | undefined) => placeholder(key, arg, choices));
}

function placeholder(key: string, arg: string | undefined, c: RenderChoices): string {
  const edges = c.edgeTypes.map((e) => e.name);
  const alternation = (names: string[]) => (names.length === 1 ? names[0] : `(${names.join("|")})`);
  switch (key) {
    case "graph":
      return c.graph;
    case "vertexSet":
      return c.vertexTypes.map((t) => `${t}.*`).join(", ");
    case "vertexParam":
      return c.vertexTypes.length === 1 ? `VERTEX<${c.vertexTypes[0]}>` : "VERTEX";
    case "targets":
      return alternation(c.vertexTypes);
    case "edges":
      return alternation(edges);
    case "forward":
      return alternation(c.edgeTypes.map((e) => (e.directed ? `${e.name}>` : e.name)));
    case "backward":
      return alternation(c.edgeTypes.map((e) => (e.directed ? `<${e.name}` : e.name)));
    case "outdegree": {
      const alias = need(arg, key);
      const terms = edges.map((e) => `${alias}.outdegree("${e}")`);
      return terms.length === 1 ? terms[0] : `(${terms.join(" + ")})`;
    }
    case "weight": {
      const alias = need(arg, key);
      if (!c.weightAttribute) throw new TemplateError("this algorithm needs the name of the edge weight attribute");
      return `${alias}.${c.weightAttribute}`;
    }
    case "slot": {
      const name = need(arg, key);
      const value = c.slots?.[name];
      if (!value) throw new TemplateError(`the _attr variant needs a value for '${name}'`);
      return value;
    }
    default:
      throw new TemplateError(`unknown placeholder \${${key}} in a template`);
  }
}

function need(arg: string | undefined, key: string): string {
  if (arg === undefined) throw new TemplateError(`placeholder \${${key}} needs an argument, as \${${key}:e}`);
  return arg;
}
