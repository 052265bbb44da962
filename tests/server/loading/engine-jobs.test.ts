import { expect } from "chai";
import { Engine } from "../../../server/engine/engine.js";
import { EngineError } from "../../../server/engine/engine-error.js";
import { col, job, socialSchema } from "./fixtures.js";

describe("engine registry of loading jobs", () => {
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
