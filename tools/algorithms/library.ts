// The algorithm library: what each algorithm is called in the installer's menu, which
// template it comes from, which query variants it has, what the installer must ask for it
// (a weight attribute, the attributes or edge type its `_attr` variant writes), and the
// parameters of the GET request printed for each installed query.
import { readTemplate, renderTemplate, type RenderChoices, type Variant } from "./render.js";

/** A place the `_attr` variant writes its results to, chosen at install time. */
export interface AttrSlot {
  /** Placeholder name in the template (`${slot:NAME}`). */
  name: string;
  /** A vertex attribute of the chosen vertex types, an edge type, or an attribute of that edge type. */
  kind: "vertexAttr" | "edgeType" | "edgeAttr";
  /** Attribute types that can hold the result. */
  types: string[];
  /** What the installer asks. */
  prompt: string;
}

export interface Algorithm {
  /** Template name, and the stream variant's query name. */
  name: string;
  /** Menu text; undefined for helpers installed with another algorithm. */
  menu?: string;
  variants: Variant[];
  /** Needs the name of the edge attribute holding weights. */
  weighted: boolean;
  slots: AttrSlot[];
  /** Other library queries installed along with this one. */
  helpers: string[];
  /**
   * Query-string parameters of the printed GET request, per variant. `<vertex>` stands for
   * the start vertex parameter; `<file>` for a path.
   */
  example: Partial<Record<Variant, string>>;
}

const FLOAT_TYPES = ["FLOAT", "DOUBLE"];
const INT_TYPES = ["INT", "UINT"];
const scoreSlot: AttrSlot = { name: "result", kind: "vertexAttr", types: FLOAT_TYPES, prompt: "vertex attribute (FLOAT or DOUBLE) to store the score in" };
const idSlot = (what: string): AttrSlot => ({ name: "result", kind: "vertexAttr", types: INT_TYPES, prompt: `vertex attribute (INT) to store the ${what} in` });
const edgeSlots: AttrSlot[] = [
  { name: "edge", kind: "edgeType", types: [], prompt: "edge type to create between similar vertices" },
  { name: "edgeAttr", kind: "edgeAttr", types: FLOAT_TYPES, prompt: "attribute of that edge type (FLOAT or DOUBLE) to store the similarity in" },
];
const pathSlots = (distTypes: string[]): AttrSlot[] => [
  { name: "dist", kind: "vertexAttr", types: distTypes, prompt: `vertex attribute (${distTypes.join(" or ")}) to store the distance in` },
  { name: "path", kind: "vertexAttr", types: ["STRING"], prompt: "vertex attribute (STRING) to store the path in" },
];

const ALL: Variant[] = ["stream", "file", "attr"];

/** Every algorithm, in menu order (helpers last). */
export const ALGORITHMS: readonly Algorithm[] = [
  {
    name: "closeness_cent",
    menu: "Closeness Centrality",
    variants: ALL,
    weighted: false,
    slots: [scoreSlot],
    helpers: ["cc_subquery"],
    example: { stream: "display=false&outputLimit=100", file: "display=false&f=<file>", attr: "display=false" },
  },
  {
    name: "conn_comp",
    menu: "Connected Components",
    variants: ALL,
    weighted: false,
    slots: [idSlot("component id")],
    helpers: [],
    example: { stream: "", file: "f=<file>", attr: "" },
  },
  {
    name: "label_prop",
    menu: "Label Propagation",
    variants: ALL,
    weighted: false,
    slots: [idSlot("community label")],
    helpers: [],
    example: { stream: "maxIter=10", file: "maxIter=10&f=<file>", attr: "maxIter=10" },
  },
  {
    name: "louvain",
    menu: "Louvain community detection",
    variants: ALL,
    weighted: false,
    slots: [idSlot("community id")],
    helpers: [],
    example: { stream: "", file: "f=<file>", attr: "" },
  },
  {
    name: "pageRank",
    menu: "PageRank",
    variants: ALL,
    weighted: false,
    slots: [scoreSlot],
    helpers: [],
    example: {
      stream: "maxChange=0.001&maxIter=25&damping=0.85&display=false&outputLimit=100",
      file: "maxChange=0.001&maxIter=25&damping=0.85&display=false&f=<file>",
      attr: "maxChange=0.001&maxIter=25&damping=0.85&display=false",
    },
  },
  {
    name: "shortest_path_any_wt",
    menu: "Shortest Path single-source any weight",
    variants: ALL,
    weighted: true,
    slots: pathSlots(FLOAT_TYPES),
    helpers: [],
    example: { stream: "v=<vertex>&maxDepth=-1&display=false", file: "v=<vertex>&maxDepth=-1&display=false&f=<file>", attr: "v=<vertex>&maxDepth=-1&display=false" },
  },
  {
    name: "tri_count",
    menu: "Triangle Counting (minimal memory)",
    variants: ALL,
    weighted: false,
    slots: [idSlot("number of triangles")],
    helpers: [],
    example: { stream: "", file: "f=<file>", attr: "" },
  },
  {
    name: "tri_count_fast",
    menu: "Triangle Counting (fast, more memory)",
    variants: ALL,
    weighted: false,
    slots: [idSlot("number of triangles")],
    helpers: [],
    example: { stream: "", file: "f=<file>", attr: "" },
  },
  {
    name: "shortest_ss",
    menu: "Shortest Path single-source unweighted",
    variants: ALL,
    weighted: false,
    slots: pathSlots(INT_TYPES),
    helpers: [],
    example: { stream: "v=<vertex>&maxDepth=-1&display=false", file: "v=<vertex>&maxDepth=-1&display=false&f=<file>", attr: "v=<vertex>&maxDepth=-1&display=false" },
  },
  {
    name: "cosine_nbor_ss",
    menu: "Cosine Similarity of neighborhoods, single source",
    variants: ALL,
    weighted: true,
    slots: edgeSlots,
    helpers: [],
    example: { stream: "source=<vertex>&topK=10", file: "source=<vertex>&topK=10&f=<file>", attr: "source=<vertex>" },
  },
  {
    name: "cosine_nbor_ap",
    menu: "Cosine Similarity of neighborhoods, all pairs",
    variants: ALL,
    weighted: true,
    slots: edgeSlots,
    helpers: [],
    example: { stream: "topK=10", file: "topK=10&f=<file>", attr: "topK=10" },
  },
  {
    name: "jaccard_nbor_ss",
    menu: "Jaccard Similarity of neighborhoods, single source",
    variants: ALL,
    weighted: false,
    slots: edgeSlots,
    helpers: [],
    example: { stream: "source=<vertex>&topK=10", file: "source=<vertex>&topK=10&f=<file>", attr: "source=<vertex>" },
  },
  {
    name: "jaccard_nbor_ap",
    menu: "Jaccard Similarity of neighborhoods, all pairs",
    variants: ALL,
    weighted: false,
    slots: edgeSlots,
    helpers: [],
    example: { stream: "topK=10", file: "topK=10&f=<file>", attr: "topK=10" },
  },
  {
    name: "cc_subquery",
    variants: ["stream"],
    weighted: false,
    slots: [],
    helpers: [],
    example: { stream: "v=<vertex>&numVert=<number of vertices>&maxHops=-1" },
  },
];

export function algorithm(name: string): Algorithm {
  const a = ALGORITHMS.find((x) => x.name === name);
  if (a === undefined) throw new Error(`no algorithm named '${name}' in the library`);
  return a;
}

/** The installed query name of a variant. */
export function queryName(a: Algorithm, variant: Variant): string {
  return variant === "stream" ? a.name : `${a.name}_${variant}`;
}

/** GSQL text of one variant of an algorithm for the user's choices. */
export function renderQuery(a: Algorithm, variant: Variant, choices: RenderChoices): string {
  if (!a.variants.includes(variant)) throw new Error(`${a.name} has no ${variant} variant`);
  return renderTemplate(readTemplate(a.name), variant, choices).trim() + "\n";
}
