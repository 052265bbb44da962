import { expect } from "chai";
import { Engine } from "../../../server/engine/engine.js";
import { EngineError } from "../../../server/engine/engine-error.js";
import { Catalog } from "../../../server/catalog/catalog.js";
import { attachCatalog } from "../../../server/gsql/gsql-services.js";
import { col, job, socialSchema } from "./fixtures.js";

describe("engine commands for loading jobs", () => {
  it("refuses a job that does not fit the schema, and drops jobs a schema change breaks", () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    expect(() => engine.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "Nope", values: [col(0)] }], {}, { name: "bad" }) }))
      .to.throw(EngineError, "The loading job bad cannot be created: Vertex type Nope does not exist in graph social.");
    engine.apply({ kind: "create-loading-job", plan: job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }], {}, { name: "cities" }) });
    engine.apply({ kind: "create-loading-job", plan: job([{ kind: "edge", type: "LivesIn", from: { id: col(0) }, to: { id: col(1) }, values: [] }], {}, { name: "lives" }) });
    expect(engine.loadingJobs("social").map((j) => j.name)).to.deep.equal(["cities", "lives"]);
    // City gains an attribute: the job loading City no longer has a value for every attribute.
    const next = socialSchema();
    next.vertexTypes.find((v) => v.name === "City")!.attributes.push({ name: "country", type: { kind: "scalar", name: "STRING" } });
    engine.apply({ kind: "define-schema", schema: next });
    expect(engine.loadingJobs("social").map((j) => j.name)).to.deep.equal(["lives"]);
    engine.apply({ kind: "drop-loading-job", graph: "social", name: "lives" });
    expect(engine.loadingJob("social", "lives")).to.equal(undefined);
  });
});

describe("one registry of loading jobs: the catalog", () => {
  const cities = () => job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }], {}, { name: "cities" });

  it("keeps jobs made by the engine command in the catalog, with the text SHOW JOB prints and the types written", () => {
    const engine = new Engine();
    const catalog = new Catalog();
    attachCatalog(engine, catalog);
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    engine.apply({ kind: "create-loading-job", plan: cities() });
    const record = catalog.loadingJob("social", "cities")!;
    expect(record.types).to.deep.equal(["City"]);
    expect(record.text.split("\n")[0]).to.equal("CREATE LOADING JOB cities FOR GRAPH social {");
    expect(engine.loadingJobs("social").map((p) => p.name)).to.deep.equal(["cities"]);
    // Dropped through the catalog's own change: the engine no longer finds it.
    engine.apply({ kind: "catalog", changes: [{ kind: "drop-jobs", graph: "social", names: ["cities"] }] });
    expect(engine.loadingJob("social", "cities")).to.equal(undefined);
    expect(engine.apply({ kind: "drop-loading-job", graph: "social", name: "cities" })).to.equal(false);
  });

  it("keeps jobs put by the catalog visible to the engine, and a catalog attached later takes over the engine's jobs", () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    engine.apply({ kind: "create-loading-job", plan: cities() });
    const catalog = new Catalog();
    attachCatalog(engine, catalog);
    expect(catalog.loadingJobs("social").map((j) => j.name)).to.deep.equal(["cities"]);
    const lives = job([{ kind: "edge", type: "LivesIn", from: { id: col(0) }, to: { id: col(1) }, values: [] }], {}, { name: "lives" });
    catalog.submit([{ kind: "put-loading-job", job: { name: "lives", graph: "social", text: "", plan: lives, types: ["LivesIn"] } }]);
    expect(engine.loadingJobs("social").map((p) => p.name)).to.deep.equal(["cities", "lives"]);
    // The snapshot image holds them once, in the catalog's state.
    const image = engine.catalogImage();
    expect(image.loadingJobs).to.equal(undefined);
    expect((image.gsqlCatalog as { loadingJobs: { name: string }[] }).loadingJobs.map((j) => j.name)).to.deep.equal(["cities", "lives"]);
  });

  it("restores an image that still has the engine's own list into the catalog", () => {
    const engine = new Engine();
    engine.apply({ kind: "define-schema", schema: socialSchema() });
    const older = { ...engine.catalogImage(), gsqlCatalog: undefined, loadingJobs: [cities()] };
    const restored = new Engine();
    restored.restoreState(older, undefined);
    expect(restored.loadingJobs("social").map((p) => p.name)).to.deep.equal(["cities"]);
    expect((restored.catalogImage().gsqlCatalog as { loadingJobs: { name: string; types: string[] }[] }).loadingJobs).to.have.length(1);
  });
});
