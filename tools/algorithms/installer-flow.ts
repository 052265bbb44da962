// The installer's two forms. Interactive (interface.md, algorithm-library installer): the
// graph name; a numbered menu of algorithms with EXIT; for each algorithm the vertex and edge
// types to use (comma-separated, blank for all), the weight attribute when it needs one, and
// optionally where its `_attr` variant writes; the earlier queries of the same names are
// dropped and the new ones created; back to the menu; on EXIT, whether to install them all
// now, then one GET request per query. From flags: the same steps without questions.
import { MENU, checkChoice, pickNames, planQueries, requestLine, slotCandidates, weightCandidates, type AlgorithmChoice, type PlannedQuery } from "./installer-plan.js";
import type { Algorithm } from "./library.js";
import type { GraphTypes, LibraryServer } from "./library-server.js";

/** Lines to the user and answers from them (undefined when the input has ended). */
export interface InstallerIo {
  say(line: string): void;
  ask(prompt: string): Promise<string | undefined>;
}

export class InputEnded extends Error {
  constructor() {
    super("The input ended before the installer was done; nothing more was changed.");
  }
}

async function answer(io: InstallerIo, prompt: string): Promise<string> {
  const a = await io.ask(prompt);
  if (a === undefined) throw new InputEnded();
  return a.trim();
}

/** Runs the interactive installer; returns the process exit code. */
export async function interactiveInstaller(io: InstallerIo, server: LibraryServer, graphName?: string): Promise<number> {
  let types: GraphTypes | undefined;
  for (let graph = graphName; types === undefined; graph = undefined) {
    graph ??= await answer(io, "Graph name: ");
    if (graph === "") continue;
    types = await server.graphTypes(graph);
    if (types === undefined) io.say(`There is no graph '${graph}' on the server.`);
  }
  const created: PlannedQuery[] = [];
  for (;;) {
    const chosen = await menuChoice(io);
    if (chosen === undefined) break;
    const choice = await askChoice(io, types, chosen);
    if (choice === undefined) continue;
    const queries = planQueries(types, choice);
    if (await createQueries(io, server, types.graph, queries)) {
      for (const q of queries) {
        const i = created.findIndex((c) => c.name === q.name);
        if (i >= 0) created.splice(i, 1);
        created.push(q);
      }
    }
  }
  if (created.length === 0) {
    io.say("No queries were created.");
    return 0;
  }
  const names = created.map((q) => q.name).join(", ");
  const yes = /^y(es)?$/i.test(await answer(io, `Install the ${created.length} queries created (${names}) now, in one group? [y/n]: `));
  return finish(io, server, types.graph, created, yes);
}

async function menuChoice(io: InstallerIo): Promise<Algorithm | undefined> {
  io.say("");
  io.say("Algorithms:");
  MENU.forEach((a, i) => io.say(`  ${String(i + 1).padStart(2)}) ${a.menu}`));
  io.say(`  ${String(MENU.length + 1).padStart(2)}) EXIT`);
  for (;;) {
    const a = await answer(io, `Choose an algorithm [1-${MENU.length + 1}]: `);
    const n = Number(a);
    if (Number.isInteger(n) && n >= 1 && n <= MENU.length + 1) return n === MENU.length + 1 ? undefined : MENU[n - 1];
    if (/^exit$/i.test(a)) return undefined;
    io.say(`Please enter a number from 1 to ${MENU.length + 1}.`);
  }
}

async function askNames(io: InstallerIo, all: string[], what: string, prompt: string): Promise<string[]> {
  for (;;) {
    const picked = pickNames(await answer(io, prompt), all, what);
    if ("names" in picked) return picked.names;
    io.say(picked.error);
  }
}

/** The user's choices for one algorithm; undefined when it cannot run on this graph. */
async function askChoice(io: InstallerIo, types: GraphTypes, algorithm: Algorithm): Promise<AlgorithmChoice | undefined> {
  io.say(`${algorithm.menu} (${algorithm.name})`);
  const vertexNames = types.vertexTypes.map((v) => v.name);
  io.say(`Vertex types of graph ${types.graph}: ${vertexNames.join(", ")}`);
  const vertexTypes = await askNames(io, vertexNames, "vertex type", "Vertex types to use (comma-separated, blank for all): ");
  const describe = (e: GraphTypes["edgeTypes"][number]) => `${e.name} (${e.directed ? "directed" : "undirected"}${e.reverseEdge ? `, reverse ${e.reverseEdge}` : ""})`;
  io.say(`Edge types of graph ${types.graph}: ${types.edgeTypes.map(describe).join(", ")}`);
  const edgeNames = types.edgeTypes.map((e) => e.name);
  if (algorithm.weighted && !edgeNames.some((e) => weightCandidates(types, [e]).length > 0)) {
    io.say(`${algorithm.name} needs edge weights, and no edge type of graph ${types.graph} has a numeric attribute; nothing was created.`);
    return undefined;
  }
  let edgeTypes: string[];
  for (;;) {
    edgeTypes = await askNames(io, edgeNames, "edge type", "Edge types to use (comma-separated, blank for all): ");
    if (!algorithm.weighted || weightCandidates(types, edgeTypes).length > 0) break;
    io.say(`The chosen edge types share no numeric attribute to hold the weights; choose edge types that do.`);
  }
  const choice: AlgorithmChoice = { algorithm, vertexTypes, edgeTypes };
  if (algorithm.weighted) {
    const candidates = weightCandidates(types, edgeTypes);
    io.say(`Numeric attributes of the chosen edge types: ${candidates.join(", ") || "(none)"}`);
    for (;;) {
      const w = await answer(io, "Edge attribute holding the weight: ");
      if (candidates.includes(w)) {
        choice.weightAttribute = w;
        break;
      }
      io.say(`'${w}' is not one of ${candidates.join(", ")}.`);
    }
  }
  const slots = await askSlots(io, types, algorithm, vertexTypes);
  if (slots) choice.slots = slots;
  const problems = checkChoice(types, choice);
  if (problems.length) throw new Error(problems.join("; "));
  return choice;
}

/** Where the `_attr` variant writes; undefined when the user skips it (blank first answer). */
async function askSlots(io: InstallerIo, types: GraphTypes, algorithm: Algorithm, vertexTypes: string[]): Promise<Record<string, string> | undefined> {
  if (!algorithm.variants.includes("attr") || algorithm.slots.length === 0) return undefined;
  io.say(`The ${algorithm.name}_attr variant stores its results in the graph.`);
  const slots: Record<string, string> = {};
  for (const [i, slot] of algorithm.slots.entries()) {
    const candidates = slotCandidates(types, slot, vertexTypes, slots);
    io.say(`Candidates for the ${slot.prompt}: ${candidates.join(", ") || "(none)"}`);
    for (;;) {
      const a = await answer(io, `Name of the ${slot.prompt}${i === 0 ? " (blank: no _attr variant)" : ""}: `);
      if (a === "" && i === 0) return undefined;
      if (candidates.includes(a)) {
        slots[slot.name] = a;
        break;
      }
      io.say(`'${a}' cannot be used; choose from ${candidates.join(", ") || "(none: add a suitable one to the schema first)"}.`);
    }
  }
  return slots;
}

/** Drops earlier queries of the same names, then creates the new ones; false when creating failed. */
async function createQueries(io: InstallerIo, server: LibraryServer, graph: string, queries: PlannedQuery[]): Promise<boolean> {
  const existing = new Set(await server.queryNames(graph));
  const earlier = queries.filter((q) => existing.has(q.name)).map((q) => q.name);
  if (earlier.length) {
    io.say(`Dropping the earlier queries ${earlier.join(", ")}.`);
    const dropped = await server.run(graph, `DROP QUERY ${earlier.join(", ")}`);
    if (dropped.code !== 0) {
      for (const line of dropped.lines) io.say(line);
      io.say("The earlier queries could not be dropped; nothing was created.");
      return false;
    }
  }
  io.say(`Creating ${queries.map((q) => q.name).join(", ")}.`);
  const result = await server.run(graph, queries.map((q) => q.text).join("\n"));
  for (const line of result.lines) io.say(line);
  if (result.code !== 0) {
    io.say("Creating the queries failed.");
    return false;
  }
  return true;
}

/** Installs (when asked) and prints the GET request of every query. */
export async function finish(io: InstallerIo, server: LibraryServer, graph: string, created: PlannedQuery[], install: boolean): Promise<number> {
  const names = created.map((q) => q.name).join(", ");
  if (install) {
    const result = await server.run(graph, `INSTALL QUERY ${names}`);
    for (const line of result.lines) io.say(line);
    if (result.code !== 0) {
      io.say("Installing the queries failed.");
      return result.code;
    }
  } else {
    io.say(`Not installed. Install them later, all in one group: gsql -g ${graph} 'INSTALL QUERY ${names}'`);
  }
  const auth = await server.authEnabled();
  io.say("");
  io.say(install ? "Run the installed queries with:" : "Once installed, run them with:");
  for (const q of created) io.say(`  ${q.name}: ${requestLine(server.restUrl(), graph, q, auth)}`);
  return 0;
}

/** An algorithm named by flags: unnamed types mean all of the graph's. */
export type FlagChoice = Omit<AlgorithmChoice, "vertexTypes" | "edgeTypes"> & { vertexTypes?: string[]; edgeTypes?: string[] };

/** The flag form: the algorithms named, each with the same types; returns the exit code. */
export async function flagInstaller(io: InstallerIo, server: LibraryServer, graph: string, choices: FlagChoice[], install: boolean, printOnly: boolean): Promise<number> {
  const types = await server.graphTypes(graph);
  if (types === undefined) {
    io.say(`There is no graph '${graph}' on the server.`);
    return 2;
  }
  const planned: PlannedQuery[] = [];
  for (const c of choices) {
    const choice: AlgorithmChoice = {
      ...c,
      vertexTypes: c.vertexTypes?.length ? c.vertexTypes : types.vertexTypes.map((v) => v.name),
      edgeTypes: c.edgeTypes?.length ? c.edgeTypes : types.edgeTypes.map((e) => e.name),
    };
    const problems = checkChoice(types, choice);
    if (problems.length) {
      io.say(`${c.algorithm.name}: ${problems.join("; ")}.`);
      return 2;
    }
    for (const q of planQueries(types, choice)) if (!planned.some((p) => p.name === q.name)) planned.push(q);
  }
  if (printOnly) {
    for (const q of planned) io.say(q.text);
    return 0;
  }
  if (!(await createQueries(io, server, graph, planned))) return 1;
  return finish(io, server, graph, planned, install);
}
