// The algorithm-library installer as users run it: a subprocess driven through its prompts
// on a pipe, against a real server (GSQL-server and REST endpoints on ephemeral ports): the
// graph name, the numbered menu with EXIT, the type choices, the _attr questions, dropping
// earlier queries, the install question, and the printed GET requests, which are then
// answered by the server's installed queries. Also the flag form and bad answers.
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, type RunningServer } from "../../server/serve.js";
import { LibraryServer } from "../../tools/algorithms/library-server.js";
import { samePartition } from "./algo-harness.js";
import { mulberry32 } from "../../tools/bench/rmat.js";

const INSTALLER = fileURLToPath(new URL("../../tools/algorithms/installer.js", import.meta.url));

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id STRING, score DOUBLE, label INT, wdist DOUBLE, path STRING)
CREATE DIRECTED EDGE E (FROM V, TO V, w DOUBLE)
CREATE UNDIRECTED EDGE U (FROM V, TO V)
CREATE GRAPH G (V, E, U)
`;
// E: 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 3 (3 has no out-edges), 4 -> 0 (4 has no in-edges)
const E_EDGES: [number, number, number][] = [[0, 1, 2], [1, 2, 2], [2, 0, 2], [2, 3, 1], [4, 0, 5]];
// U: triangle 0-1-2, pair 3-4, 5 alone
const U_EDGES: [number, number][] = [[0, 1], [1, 2], [0, 2], [3, 4]];

interface Run {
  code: number;
  out: string;
}

function runInstaller(args: string[], input: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INSTALLER, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, out }));
    child.stdin.end(input);
  });
}

/** The printed GET requests: query name -> URL. */
function printedRequests(out: string): Map<string, { url: URL; auth: boolean }> {
  const found = new Map<string, { url: URL; auth: boolean }>();
  for (const m of out.matchAll(/^ {2}(\w+): curl -X GET '([^']+)'( -H 'Authorization: Bearer <ACCESS_TOKEN>')?$/gm)) found.set(m[1], { url: new URL(m[2]), auth: m[3] !== undefined });
  return found;
}

/** Upserts the test graph into G over REST. */
async function upsertGraph(restPort: number, authorization?: string): Promise<void> {
  const body = {
    vertices: { V: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`v${i}`, {}])) },
    edges: {
      V: Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [
          `v${i}`,
          {
            E: { V: Object.fromEntries(E_EDGES.filter(([a]) => a === i).map(([, b, w]) => [`v${b}`, { w: { value: w } }])) },
            U: { V: Object.fromEntries(U_EDGES.filter(([a]) => a === i).map(([, b]) => [`v${b}`, {}])) },
          },
        ]),
      ),
    },
  };
  const res = await fetch(`http://127.0.0.1:${restPort}/graph/G`, { method: "POST", body: JSON.stringify(body), headers: authorization ? { Authorization: authorization } : {} });
  expect(await res.json()).to.deep.include({ error: false });
}

describe("algorithm-library installer (subprocess, piped answers, real server)", function () {
  this.timeout(60000);
  let server: RunningServer;
  let gsqlUrl: string;
  const dir = mkdtempSync(join(tmpdir(), "wasmgraph-installer-"));

  before(async () => {
    server = await startServer({ port: 0, gsqlPort: 0, log: () => undefined });
    gsqlUrl = `http://127.0.0.1:${server.gsqlPort}`;
    const admin = new LibraryServer({ gsqlUrl, user: "tigergraph", password: "tigergraph" });
    await admin.login();
    const created = await admin.run(undefined, SCHEMA);
    expect(created.code, created.lines.join("\n")).to.equal(0);
    await upsertGraph(server.restPort);
  });

  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends a printed request to the server as it is printed (GET, its query string); returns `results`. */
  async function answer(url: URL, authorization?: string): Promise<unknown[]> {
    const res = await fetch(url, authorization ? { headers: { Authorization: authorization } } : {});
    const body = (await res.json()) as { error: boolean; message: string; results: unknown[] };
    if (res.status !== 200 || body.error) throw new Error(`${url.pathname}: HTTP ${res.status} ${body.message}`);
    return body.results;
  }

  const attribute = (name: string) => server.services.engine.store.read((s) => Array.from({ length: 6 }, (_, i) => s.attribute(s.lookup("V", `v${i}`)!, name)));

  it("interactive: menu, types, _attr attributes, install, and requests that run", async () => {
    const answers = [
      "G",
      "5", "", "E", "score", // PageRank on E, with pageRank_attr into score
      "2", "V", "U", "", // Connected Components on U, no _attr variant
      "6", "", "E", "w", "wdist", "path", // Shortest Path any weight, weight w, _attr into wdist and path
      "14", // EXIT
      "y",
    ];
    const r = await runInstaller(["--host", gsqlUrl], answers.join("\n") + "\n");
    expect(r.code, r.out).to.equal(0);
    // the menu: numbered algorithms of interface.md, then EXIT
    for (const [i, label] of ["Closeness Centrality", "Connected Components", "Label Propagation", "Louvain community detection", "PageRank", "Shortest Path single-source any weight", "Triangle Counting (minimal memory)", "Triangle Counting (fast, more memory)"].entries()) {
      expect(r.out).to.include(`${String(i + 1).padStart(4)}) ${label}\n`);
    }
    expect(r.out).to.include("  14) EXIT\n");
    expect(r.out).to.include("Vertex types of graph G: V\n");
    expect(r.out).to.include("Edge types of graph G: E (directed), U (undirected)\n");
    expect(r.out).to.include("Numeric attributes of the chosen edge types: w\n");
    expect(r.out).to.include("Creating pageRank, pageRank_file, pageRank_attr.");
    expect(r.out).to.include("Creating conn_comp, conn_comp_file.");
    expect(r.out).to.include("Query installation finished.");

    const requests = printedRequests(r.out);
    expect([...requests.keys()].sort()).to.deep.equal(
      ["conn_comp", "conn_comp_file", "pageRank", "pageRank_attr", "pageRank_file", "shortest_path_any_wt", "shortest_path_any_wt_attr", "shortest_path_any_wt_file"].sort(),
    );
    for (const { url, auth } of requests.values()) {
      expect(url.origin).to.equal(`http://127.0.0.1:${server.restPort}`);
      expect(auth).to.equal(false);
    }

    // the printed requests, with a real start vertex and output files of ours
    const fill = (name: string) => {
      const url = new URL(requests.get(name)!.url);
      for (const [k, v] of [...url.searchParams]) {
        if (v === "<vertex_id>") url.searchParams.set(k, "v4");
        if (v.startsWith("/tmp/")) url.searchParams.set(k, join(dir, `${name}.csv`));
      }
      return url;
    };
    const [pr] = (await answer(fill("pageRank"))) as { "@@topScores": { Vertex_ID: string; score: number }[] }[];
    const scores = new Map(pr["@@topScores"].map((s) => [s.Vertex_ID, s.score]));
    expect(scores.size).to.equal(6);
    expect(scores.get("v3")).to.equal(1); // no out-edges
    expect(scores.get("v4")).to.equal(0.15); // no in-edges
    expect(scores.get("v5")).to.equal(1); // alone
    expect(await answer(fill("pageRank_attr"))).to.deep.equal([]);
    attribute("score").forEach((s, i) => expect(Number(Math.fround(s as number).toPrecision(7))).to.equal(scores.get(`v${i}`)));
    await answer(fill("pageRank_file"));
    expect(readFileSync(join(dir, "pageRank_file.csv"), "utf8").split("\n")[0]).to.equal("Vertex_ID,PageRank");

    const [cc] = (await answer(fill("conn_comp"))) as { Start: { v_id: string; attributes: { "Start.@cc_id": number } }[] }[];
    const ids = Array.from({ length: 6 }, (_, i) => cc.Start.find((v) => v.v_id === `v${i}`)!.attributes["Start.@cc_id"]);
    expect(samePartition(ids, [0, 0, 0, 3, 3, 5])).to.equal(true);

    const [sp] = (await answer(fill("shortest_path_any_wt"))) as { ResultSet: { v_id: string; attributes: { dis: number; path: string } }[] }[];
    expect(Object.fromEntries(sp.ResultSet.map((v) => [v.v_id, [v.attributes.dis, v.attributes.path]]))).to.deep.equal({
      v4: [0, "v4"],
      v0: [5, "v4->v0"],
      v1: [7, "v4->v0->v1"],
      v2: [9, "v4->v0->v1->v2"],
      v3: [10, "v4->v0->v1->v2->v3"],
    });
    await answer(fill("shortest_path_any_wt_attr"));
    expect(attribute("wdist")).to.deep.equal([5, 7, 9, 10, 0, -1]);
    expect(attribute("path")).to.deep.equal(["v4->v0", "v4->v0->v1", "v4->v0->v1->v2", "v4->v0->v1->v2->v3", "v4", ""]);
  });

  it("a second run drops the earlier queries of the same names first; declining to install says how to later", async () => {
    const r = await runInstaller(["--host", gsqlUrl, "-g", "G"], ["2", "", "U", "label", "14", "n"].join("\n") + "\n");
    expect(r.code, r.out).to.equal(0);
    expect(r.out).to.include("Dropping the earlier queries conn_comp, conn_comp_file.");
    expect(r.out).to.include("Creating conn_comp, conn_comp_file, conn_comp_attr.");
    expect(r.out).to.include("Not installed. Install them later, all in one group: gsql -g G 'INSTALL QUERY conn_comp, conn_comp_file, conn_comp_attr'");
    expect(r.out).to.include("Once installed, run them with:");
    expect(server.installedQueries.get("G", "conn_comp")).to.equal(undefined);
  });

  it("asks again after a wrong answer; stops cleanly when the input ends", async () => {
    const r = await runInstaller(["--host", gsqlUrl], ["Nope", "G", "0", "abc", "7", "V,X", "V", "", "", "6", "", "U", "E", "nope", "w", "", "14"].join("\n") + "\n");
    expect(r.out).to.include("There is no graph 'Nope' on the server.");
    expect(r.out).to.include("Please enter a number from 1 to 14.");
    expect(r.out).to.include("'X' is not a vertex type of the graph; choose from V.");
    expect(r.out).to.include("Creating tri_count, tri_count_file.");
    // U has no numeric attribute to hold weights: asked again for the edge types, then for the attribute
    expect(r.out).to.include("The chosen edge types share no numeric attribute to hold the weights; choose edge types that do.");
    expect(r.out).to.include("'nope' is not one of w.");
    expect(r.out).to.include("Creating shortest_path_any_wt, shortest_path_any_wt_file.");
    // input ends at the install question: nothing is installed
    expect(r.out).to.include("The input ended before the installer was done");
    expect(r.code).to.equal(3);
    expect(server.installedQueries.get("G", "tri_count")).to.equal(undefined);
  });

  it("flag form: creates and installs without questions; --print only prints the GSQL; --list", async () => {
    const r = await runInstaller(["--host", gsqlUrl, "-g", "G", "-a", "label_prop,jaccard_nbor_ss", "--edge-types", "U", "--install"], "");
    expect(r.code, r.out).to.equal(0);
    expect(r.out).to.include("Creating label_prop, label_prop_file, jaccard_nbor_ss, jaccard_nbor_ss_file.");
    const requests = printedRequests(r.out);
    expect([...requests.keys()]).to.deep.equal(["label_prop", "label_prop_file", "jaccard_nbor_ss", "jaccard_nbor_ss_file"]);
    const url = requests.get("jaccard_nbor_ss")!.url;
    url.searchParams.set("source", "v0");
    const [j] = (await answer(url)) as { "@@result_topk": { vertex1: string; vertex2: string; score: number }[] }[];
    // N(v0) = {v1, v2}; v1 and v2 each share one of them out of three: 1/3 (a tie, in any order)
    const third = Number((1 / 3).toPrecision(7));
    expect([...j["@@result_topk"]].sort((a, b) => a.vertex2.localeCompare(b.vertex2))).to.deep.equal([
      { vertex1: "v0", vertex2: "v1", score: third },
      { vertex1: "v0", vertex2: "v2", score: third },
    ]);

    const printed = await runInstaller(["--host", gsqlUrl, "-g", "G", "-a", "pageRank", "--edge-types", "E", "--attr", "result=score", "--print"], "");
    expect(printed.code, printed.out).to.equal(0);
    expect(printed.out).to.include("CREATE QUERY pageRank(FLOAT maxChange = 0.001");
    expect(printed.out).to.include("CREATE QUERY pageRank_attr(");
    expect(printed.out).to.include("v.score = v.@score");

    const bad = await runInstaller(["--host", gsqlUrl, "-g", "G", "-a", "shortest_path_any_wt", "--edge-types", "U"], "");
    expect(bad.code).to.equal(2);
    expect(bad.out).to.include("shortest_path_any_wt: shortest_path_any_wt needs the edge attribute holding the weights.");

    const list = await runInstaller(["--list"], "");
    expect(list.out).to.include("pageRank (PageRank): pageRank, pageRank_file, pageRank_attr; --attr result=");
    expect(list.out).to.include("cc_subquery (helper): cc_subquery");
  });

  it("fuzz: random and hostile answers never crash it; it asks again or stops cleanly", async () => {
    const rnd = mulberry32(2024);
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const hostile = ["0", "-1", "99999999999999999999", "x'; DROP QUERY *; '", "\u0000", "é😀", "${graph}", "V\tE", ",", " , ", "V,V", "a".repeat(5000)];
    const plausible = ["", "", "V", "E", "U", "E,U", "score", "label", "wdist", "path", "w", "y", "n"];
    for (let run = 0; run < 3; run++) {
      // per menu visit: a choice (mostly valid), then answers that are mostly plausible for the type and attribute questions
      const answers: string[] = [];
      for (let visit = 0; visit < 4; visit++) {
        answers.push(rnd() < 0.8 ? String(1 + Math.floor(rnd() * 13)) : pick(hostile));
        for (let i = 0; i < 6; i++) answers.push(rnd() < 0.7 ? pick(plausible) : pick(hostile));
      }
      answers.push("14", "n");
      const r = await runInstaller(["--host", gsqlUrl, ...(run < 2 ? ["-g", "G"] : [])], answers.join("\n") + "\n");
      expect([0, 3], r.out.slice(-2000)).to.include(r.code);
      expect(r.out).to.not.include("gsql-algorithms:");
      if (process.env.SHOW_FUZZ) console.log(r.out);
    }
    // the graph and its data are still there
    expect(attribute("label")).to.have.length(6);
    const vertices = (await (await fetch(`http://127.0.0.1:${server.restPort}/graph/G/vertices/V`)).json()) as { results: unknown[] };
    expect(vertices.results).to.have.length(6);
  });

  it("with authentication on: logs in with -u/-p, and every printed request carries the Bearer header", async () => {
    const secured = await startServer({ port: 0, gsqlPort: 0, log: () => undefined, auth: { enabled: true, scryptCost: { N: 1024, r: 8, p: 1 }, lockout: false } });
    try {
      const securedGsql = `http://127.0.0.1:${secured.gsqlPort}`;
      const admin = new LibraryServer({ gsqlUrl: securedGsql, user: "tigergraph", password: "tigergraph" });
      await admin.login();
      expect((await admin.run(undefined, SCHEMA)).code).to.equal(0);
      await upsertGraph(secured.restPort, "Basic " + Buffer.from("tigergraph:tigergraph").toString("base64"));
      const refused = await runInstaller(["--host", securedGsql, "-u", "tigergraph", "-p", "wrong", "-g", "G", "-a", "tri_count"], "");
      expect(refused.code).to.equal(1);
      expect(refused.out).to.not.include("Creating");
      const r = await runInstaller(["--host", securedGsql, "-u", "tigergraph", "-p", "tigergraph", "-g", "G", "-a", "tri_count", "--edge-types", "U", "--install"], "");
      expect(r.code, r.out).to.equal(0);
      const requests = printedRequests(r.out);
      expect([...requests.keys()]).to.deep.equal(["tri_count", "tri_count_file"]);
      for (const { url: u, auth } of requests.values()) {
        expect(u.origin).to.equal(`http://127.0.0.1:${secured.restPort}`);
        expect(auth).to.equal(true);
      }
      expect(requests.get("tri_count_file")!.url.searchParams.get("f")).to.equal("/tmp/tri_count_file.csv");
      // the request as printed, with a token in the header: the triangle 0-1-2 of U
      const basicAuth = "Basic " + Buffer.from("tigergraph:tigergraph").toString("base64");
      const granted = (await (await fetch(`http://127.0.0.1:${secured.restPort}/requesttoken`, { method: "POST", headers: { Authorization: basicAuth }, body: JSON.stringify({ graph: "G" }) })).json()) as { token: string };
      const url = requests.get("tri_count")!.url;
      expect((await fetch(url)).status).to.equal(401);
      expect(await answer(url, `Bearer ${granted.token}`)).to.deep.equal([{ num_triangles: 1 }]);
    } finally {
      await secured.close();
    }
  });
});
