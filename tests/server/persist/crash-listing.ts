// Reads every Item vertex of the crash-test graph over REST. One GET of the type is not
// enough: the interface caps a vertex read at 10240 records, with or without `limit`, and a
// long crash run holds more Items than that (the records past the cap would look like lost
// writes). So the listing is split on attribute ranges (`round`, then `n`) until no part
// reaches the cap, and the records read must add up to the type's count_only total.
import { GRAPH, type VertexState } from "./crash-workload.js";

/** The interface's cap on the records of one vertex read. */
export const READ_CAP = 10240;

type Fetch = (url: string) => Promise<any>;

/** Every Item vertex (id → n, round), checked against the count the server reports. */
export async function listAllItems(base: string): Promise<Map<string, VertexState>> {
  const get: Fetch = async (url) => {
    const json = (await (await fetch(base + url)).json()) as any;
    if (json.error) throw new Error(`GET ${url} failed: ${json.message}`);
    return json;
  };
  const vertices = new Map<string, VertexState>();
  const total: number = (await get(`/graph/${GRAPH}/vertices/Item?count_only=true`)).results[0].count;
  if (total > 0) await listRange(get, vertices, "round", await bounds(get, "round", ""), "");
  if (vertices.size !== total) throw new Error(`listing the Items by parts found ${vertices.size}, count_only says ${total}`);
  return vertices;
}

/**
 * Lists the Items with `attribute` in [lo, hi) (and the conditions in `outer`); a part that
 * reaches the cap is split in two, a single round by its `n`.
 */
async function listRange(get: Fetch, into: Map<string, VertexState>, attribute: "round" | "n", [lo, hi]: [number, number], outer: string): Promise<void> {
  const filter = `${outer}${attribute}>=${lo},${attribute}<${hi}`;
  const json = await get(`/graph/${GRAPH}/vertices/Item?filter=${encodeURIComponent(filter)}`);
  if (json.results.length < READ_CAP) {
    for (const v of json.results) into.set(v.v_id, { n: v.attributes.n, round: v.attributes.round });
    return;
  }
  if (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    await listRange(get, into, attribute, [lo, mid], outer);
    await listRange(get, into, attribute, [mid, hi], outer);
    return;
  }
  if (attribute === "n") throw new Error(`${READ_CAP} or more Items have ${outer}n=${lo}: cannot list them all`);
  // One round over the cap: split it by n.
  await listRange(get, into, "n", await bounds(get, "n", `round=${lo}`), `round=${lo},`);
}

/** [smallest, largest + 1] of `attribute` among the Items passing `filter`, so splits start narrow. */
async function bounds(get: Fetch, attribute: string, filter: string): Promise<[number, number]> {
  const end = async (sort: string) => {
    const where = filter ? `filter=${encodeURIComponent(filter)}&` : "";
    return (await get(`/graph/${GRAPH}/vertices/Item?${where}sort=${sort}&limit=1`)).results[0].attributes[attribute] as number;
  };
  return [await end(attribute), (await end(`-${attribute}`)) + 1];
}
