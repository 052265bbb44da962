// GET /endpoints: the listing of every built-in endpoint with full parameter descriptors,
// the builtin/dynamic/static filters, the per-graph form, and the registration hook.
import { expect } from "chai";
import { startTestServer, type TestServer } from "../helpers/http.js";
import { BUILTIN_ENDPOINTS } from "../../server/endpoints/builtin-endpoints.js";
import { Engine } from "../../server/engine/engine.js";
import { emptySchema } from "../../runtime-wasm/schema/types.js";

const QUERY_KEY = "GET /query/social/hello";
const queryDescriptor = { parameters: { query: { type: "STRING" as const, default: "hello" }, n: { type: "INT64" as const, min_count: 0 } } };

describe("REST /endpoints", () => {
  let t: TestServer;
  before(async () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: { ...emptySchema(), graphs: [{ name: "social", vertexTypes: [], edgeTypes: [], version: 0 }, { name: "other", vertexTypes: [], edgeTypes: [], version: 0 }] } });
    t = await startTestServer({ engine });
    t.server.services.endpoints.register(QUERY_KEY, "dynamic", queryDescriptor, "social");
    t.server.services.endpoints.register("GET /query/other/bye", "dynamic", null, "other");
    t.server.services.endpoints.register("POST /mine", "static", null);
  });
  after(() => t.close());

  it("lists every built-in endpoint as a bare object keyed 'METHOD /path'", async () => {
    const r = await t.get("/endpoints?builtin=true");
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal(BUILTIN_ENDPOINTS);
    expect(Object.keys(r.json)).to.include.members([
      "GET /echo",
      "POST /echo",
      "GET /endpoints",
      "GET /statistics",
      "GET /version",
      "GET /graph/{graph_name}/vertices/{vertex_type}",
      "GET /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}",
      "DELETE /graph/{graph_name}/vertices/{vertex_type}",
      "DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}",
      "DELETE /graph/{graph_name}/delete_by_type/vertices/{vertex_type}",
      "GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}/{target_vertex_id}",
      "DELETE /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}",
      "POST /graph/{graph_name}",
      "POST /builtins/{graph_name}",
    ]);
    expect(r.json["GET /version"]).to.equal(null);
  });

  it("describes parameters with type, default, counts, lengths, bounds, options and ids", async () => {
    const r = await t.get("/endpoints?builtin=true");
    const vertexById = r.json["GET /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}"].parameters;
    expect(vertexById.vertex_id).to.deep.equal({ min_count: 1, max_count: 1, type: "STRING", max_length: 2560, is_id: true, id_type: "$vertex_type" });
    expect(vertexById.vertex_type).to.deep.equal({ min_count: 1, max_count: 1, type: "TYPENAME" });
    expect(vertexById.limit).to.deep.equal({ min_count: 0, max_count: 1, type: "UINT64", min: "0", max: "10240" });
    expect(vertexById.select).to.deep.equal({ min_count: 0, max_count: 1, type: "STRING", max_length: 2560 });
    expect(vertexById.count_only).to.deep.equal({ min_count: 0, max_count: 1, type: "BOOL", default: "false" });
    expect(vertexById.timeout).to.deep.equal({ min_count: 0, max_count: 1, type: "UINT32", default: "0" });
    const edges = r.json["GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}/{target_vertex_id}"].parameters;
    expect(edges.source_vertex_id).to.deep.equal({ min_count: 1, max_count: 1, type: "STRING", max_length: 256, is_id: true, id_type: "$source_vertex_type" });
    expect(edges.target_vertex_id.id_type).to.equal("$target_vertex_type");
    expect(edges.not_wildcard.type).to.equal("BOOL");
    expect(r.json["DELETE /graph/{graph_name}/delete_by_type/vertices/{vertex_type}"].parameters.ack).to.deep.equal({
      min_count: 0,
      max_count: 1,
      type: "STRING",
      default: "all",
      options: ["all", "none"],
    });
    expect(r.json["GET /statistics"].parameters).to.deep.equal({
      seconds: { min_count: 0, max_count: 1, type: "UINT32", default: "10", min: "1", max: "60" },
      segments: { min_count: 0, max_count: 1, type: "UINT32", default: "10", min: "1", max: "100" },
    });
    expect(r.json["GET /endpoints"].parameters.dynamic).to.deep.equal({ min_count: 0, max_count: 1, type: "BOOL", default: "false" });
  });

  it("filters by kind; several kinds combine; none given lists all three", async () => {
    expect((await t.get("/endpoints?dynamic=true")).json).to.deep.equal({ [QUERY_KEY]: queryDescriptor, "GET /query/other/bye": null });
    expect((await t.get("/endpoints?static=true")).json).to.deep.equal({ "POST /mine": null });
    const both = (await t.get("/endpoints?static=true&dynamic=true")).json;
    expect(Object.keys(both).sort()).to.deep.equal(["GET /query/other/bye", QUERY_KEY, "POST /mine"]);
    const all = (await t.get("/endpoints")).json;
    expect(Object.keys(all).length).to.equal(Object.keys(BUILTIN_ENDPOINTS).length + 3);
    const falseOnes = (await t.get("/endpoints?builtin=false&dynamic=false")).json;
    expect(Object.keys(falseOnes).length).to.equal(Object.keys(BUILTIN_ENDPOINTS).length + 3);
  });

  it("/endpoints/{graph} lists that graph's dynamic endpoints; clients find queries by key prefix", async () => {
    const r = await t.get("/endpoints/social?dynamic=true");
    expect(r.json).to.deep.equal({ [QUERY_KEY]: queryDescriptor });
    expect(Object.keys(r.json).filter((k) => /^GET \/query\/social\//.test(k))).to.deep.equal([QUERY_KEY]);
  });

  it("an unregistered query disappears from the listing", async () => {
    t.server.services.endpoints.register("GET /query/social/tmp", "dynamic", null, "social");
    expect(Object.keys((await t.get("/endpoints/social?dynamic=true")).json)).to.include("GET /query/social/tmp");
    t.server.services.endpoints.unregister("GET /query/social/tmp");
    expect(Object.keys((await t.get("/endpoints/social?dynamic=true")).json)).to.not.include("GET /query/social/tmp");
  });

  it("rejects a non-boolean filter and an unknown graph with the envelope and 400", async () => {
    const r = await t.get("/endpoints?builtin=maybe");
    expect(r.status).to.equal(400);
    expect(r.json).to.deep.equal({ error: true, code: "REST-30000", message: "Values of parameter builtin must be BOOL type, invalid value [maybe] provided.", results: [] });
    const twice = await t.get("/endpoints?builtin=true&builtin=false");
    expect(twice.status).to.equal(400);
    expect(twice.json.message).to.equal("Parameter builtin may be given at most once.");
    const g = await t.get("/endpoints/nograph");
    expect(g.status).to.equal(400);
    expect(g.json).to.deep.equal({ error: true, code: "REST-1004", message: "Graph 'nograph' does not exist.", results: [] });
  });
});
