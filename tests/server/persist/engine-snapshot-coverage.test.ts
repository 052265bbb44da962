// A tripwire for state the snapshots would silently drop. A snapshot holds the store's
// image and Engine.catalogImage(); everything else is lost once the log before the
// snapshot is removed. So every field of the engine must be known here as either carried
// by the snapshot, rebuilt from it, or runtime wiring. A new field fails this test until it
// is added to catalogImage()/restoreState() (if it is state) and to the list below.
import { expect } from "chai";
import { Engine } from "../../../server/engine/engine.js";

/** Engine fields and how a restart from a snapshot gets them back. */
const KNOWN_FIELDS: Record<string, string> = {
  schemaState: "catalogImage().schema",
  outputApiState: "catalogImage().outputApi",
  storeState: "the store image (store.bin)",
  graphs: "derived from the schema by restoreState()",
  options: "runtime wiring (constructor options)",
  defaultTimeoutMs: "runtime wiring (constructor options)",
  now: "runtime wiring (constructor options)",
  commandLog: "runtime wiring (attached by the persistence layer)",
  auth: "catalogImage().auth",
  catalog: "catalogImage().gsqlCatalog: queries, loading jobs and schema-change jobs",
};

describe("persist: every engine field is covered by snapshots", () => {
  it("knows every field of Engine", () => {
    const unknown = Object.keys(new Engine()).filter((field) => !(field in KNOWN_FIELDS));
    expect(
      unknown,
      `Engine has state that snapshots do not carry: ${unknown.join(", ")}. ` +
        "Add it to Engine.catalogImage()/restoreState() and to KNOWN_FIELDS in this test.",
    ).to.deep.equal([]);
  });

  it("catalogImage() holds what the list says it does", () => {
    expect(Object.keys(new Engine().catalogImage()).sort()).to.deep.equal(["auth", "gsqlCatalog", "outputApi", "schema"]);
  });
});
