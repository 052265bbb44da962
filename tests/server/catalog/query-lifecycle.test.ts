// The query lifecycle rules at the catalog level: error list items 7-10 of interface.md and
// the state table, checked on hand-built catalogs.
import { expect } from "chai";
import { Catalog } from "../../../server/catalog/catalog.js";
import type { CatalogQuery, QueryState } from "../../../server/catalog/catalog-state.js";
import {
  installedChange, loadingJobsToDrop, planCreate, planDrop, planInstall, planSchemaChangeEffects,
} from "../../../server/catalog/query-lifecycle.js";

function query(name: string, state: QueryState = "defined", callees: string[] = [], graph = "g"): CatalogQuery {
  return { name, graph, text: `CREATE QUERY ${name}() FOR GRAPH ${graph} { PRINT 1; }`, paramText: "", params: [], state, callees };
}

function catalogWith(...queries: CatalogQuery[]): Catalog {
  const c = new Catalog();
  c.submit(queries.map((q) => ({ kind: "put-query" as const, query: q })));
  return c;
}

const states = (c: Catalog, graph = "g") => Object.fromEntries(c.queries(graph).map((q) => [q.name, q.state]));

describe("catalog: query lifecycle", () => {
  describe("CREATE (error 7)", () => {
    it("rejects an existing name without OR REPLACE and keeps the old text", () => {
      const c = catalogWith(query("q", "installed"));
      const plan = planCreate(c.state, { ...query("q"), text: "new" }, false, false);
      expect(plan.ok).to.equal(false);
      if (!plan.ok) expect(plan.message).to.equal("The query q already exists on the graph 'g'. Use CREATE OR REPLACE QUERY to replace it.");
      expect(c.query("g", "q")!.state).to.equal("installed");
    });

    it("OR REPLACE with an error keeps the old query", () => {
      const c = catalogWith(query("q", "installed"));
      const plan = planCreate(c.state, { ...query("q"), text: "broken" }, true, true);
      expect(plan.ok).to.equal(false);
      expect(c.query("g", "q")!.text).to.equal(query("q").text);
    });

    it("OR REPLACE without errors replaces the text and leaves the query to be installed again", () => {
      const c = catalogWith(query("q", "installed"));
      const plan = planCreate(c.state, { ...query("q"), text: "new text" }, true, false);
      expect(plan.ok).to.equal(true);
      if (!plan.ok) return;
      expect(plan.value.result).to.equal("replaced");
      expect(plan.value.uninstalled).to.equal(true);
      c.submit(plan.value.changes);
      expect(c.query("g", "q")).to.include({ text: "new text", state: "defined" });
      expect(c.query("g", "q")!.installLevel).to.equal(undefined);
    });

    it("a new query with errors is saved as a draft; the same name on another graph is independent", () => {
      const c = catalogWith(query("q", "installed", [], "other"));
      const plan = planCreate(c.state, query("q"), false, true);
      expect(plan.ok).to.equal(true);
      if (!plan.ok) return;
      expect(plan.value.result).to.equal("draft");
      c.submit(plan.value.changes);
      expect(states(c)).to.deep.equal({ q: "draft" });
      expect(states(c, "other")).to.deep.equal({ q: "installed" });
    });
  });

  describe("INSTALL (errors 8 and 10)", () => {
    it("rejects an installed query without -force, as a whole", () => {
      const c = catalogWith(query("a"), query("b", "installed"));
      const plan = planInstall(c.state, { graph: "g", names: ["a", "b"], all: false, force: false, optimize: false });
      expect(plan).to.deep.equal({ ok: false, message: "The query b is already installed. Use INSTALL QUERY -force b to reinstall it." });
    });

    it("-force reinstalls an installed query", () => {
      const c = catalogWith(query("b", "installed"));
      const plan = planInstall(c.state, { graph: "g", names: ["b"], all: false, force: true, optimize: false });
      expect(plan.ok && plan.value.queries.map((q) => q.name)).to.deep.equal(["b"]);
    });

    it("* and ALL select every query not yet installed, callees first, drafts left out", () => {
      const c = catalogWith(query("caller", "defined", ["mid"]), query("mid", "defined", ["leaf"]), query("leaf", "installed"),
        query("draft", "draft"), query("solo", "deprecated"));
      const plan = planInstall(c.state, { graph: "g", names: [], all: true, force: false, optimize: false });
      expect(plan.ok && plan.value.queries.map((q) => q.name)).to.deep.equal(["mid", "caller", "solo"]);
      expect(plan.ok && plan.value.level).to.equal(1);
    });

    it("-OPTIMIZE with a name is invalid; alone it selects every installed query at level 3", () => {
      const c = catalogWith(query("a", "installed"), query("b"), query("c", "installed", ["a"]));
      const named = planInstall(c.state, { graph: "g", names: ["a"], all: false, force: false, optimize: true });
      expect(named.ok).to.equal(false);
      if (!named.ok) expect(named.message).to.match(/^INSTALL QUERY -OPTIMIZE takes no query names/);
      const plan = planInstall(c.state, { graph: "g", names: [], all: false, force: false, optimize: true });
      expect(plan.ok && plan.value.queries.map((q) => q.name)).to.deep.equal(["a", "c"]);
      expect(plan.ok && plan.value.level).to.equal(3);
    });

    it("refuses a caller whose callee is not installed unless they are installed together", () => {
      const c = catalogWith(query("caller", "defined", ["sub"]), query("sub"));
      const alone = planInstall(c.state, { graph: "g", names: ["caller"], all: false, force: false, optimize: false });
      expect(alone.ok).to.equal(false);
      const together = planInstall(c.state, { graph: "g", names: ["caller", "sub"], all: false, force: false, optimize: false });
      expect(together.ok && together.value.queries.map((q) => q.name)).to.deep.equal(["sub", "caller"]);
    });

    it("unknown names and drafts are refused", () => {
      const c = catalogWith(query("d", "draft"));
      expect(planInstall(c.state, { graph: "g", names: ["nope"], all: false, force: false, optimize: false }))
        .to.deep.equal({ ok: false, message: "The query nope does not exist on the graph 'g'." });
      expect(planInstall(c.state, { graph: "g", names: ["d"], all: false, force: false, optimize: false }).ok).to.equal(false);
    });

    it("the installed change records the level", () => {
      const c = catalogWith(query("a"));
      c.submit([installedChange("g", ["a"], 3)]);
      expect(c.query("g", "a")).to.include({ state: "installed", installLevel: 3 });
    });
  });

  describe("DROP (error 9)", () => {
    it("refuses a query an installed query calls, unless dropped together", () => {
      const c = catalogWith(query("caller", "installed", ["sub"]), query("sub", "installed"));
      const alone = planDrop(c.state, "g", ["sub"], false);
      expect(alone).to.deep.equal({
        ok: false,
        message: "The query sub cannot be dropped: the installed query caller calls it. Drop caller first or together with it.",
      });
      const together = planDrop(c.state, "g", ["sub", "caller"], false);
      expect(together.ok).to.equal(true);
      if (together.ok) c.submit(together.value.changes);
      expect(c.queries("g")).to.deep.equal([]);
    });

    it("a caller that is not installed becomes disabled", () => {
      const c = catalogWith(query("caller", "defined", ["sub"]), query("sub", "installed"), query("other"));
      const plan = planDrop(c.state, "g", ["sub"], false);
      expect(plan.ok && plan.value.disabled).to.deep.equal(["caller"]);
      if (plan.ok) c.submit(plan.value.changes);
      expect(states(c)).to.deep.equal({ caller: "disabled", other: "defined" });
    });

    it("* drops every query of the graph only", () => {
      const c = catalogWith(query("a", "installed", ["b"]), query("b", "installed"), query("x", "installed", [], "h"));
      const plan = planDrop(c.state, "g", [], true);
      expect(plan.ok && plan.value.dropped).to.deep.equal(["a", "b"]);
      if (plan.ok) c.submit(plan.value.changes);
      expect(c.state.queries.map((q) => `${q.graph}.${q.name}`)).to.deep.equal(["h.x"]);
    });

    it("an unknown name is refused and nothing is dropped", () => {
      const c = catalogWith(query("a"));
      expect(planDrop(c.state, "g", ["a", "zz"], false).ok).to.equal(false);
      expect(states(c)).to.deep.equal({ a: "defined" });
    });
  });

  describe("schema changes", () => {
    it("queries that no longer bind become deprecated; installed ones that bind are recompiled", () => {
      const c = catalogWith(query("uses_dropped", "installed"), query("fine", "installed"), query("old", "deprecated"), query("d", "draft"));
      const outcome = planSchemaChangeEffects(c.state, "g", (q) => ({ ok: q.name !== "uses_dropped" }));
      expect(outcome.deprecated).to.deep.equal(["uses_dropped"]);
      expect(outcome.reinstall.map((q) => q.name)).to.deep.equal(["fine"]);
      c.submit(outcome.changes);
      expect(states(c)).to.deep.equal({ uses_dropped: "deprecated", fine: "installed", old: "defined", d: "draft" });
    });

    it("loading jobs that write a dropped or altered type are selected for dropping", () => {
      const c = new Catalog();
      c.submit([
        { kind: "put-loading-job", job: { name: "j1", graph: "g", text: "", plan: {}, types: ["Person", "Knows"] } },
        { kind: "put-loading-job", job: { name: "j2", graph: "g", text: "", plan: {}, types: ["City"] } },
      ]);
      expect(loadingJobsToDrop(c.state, "g", ["Knows"])).to.deep.equal(["j1"]);
    });
  });

  it("state round-trips through JSON, including hostile names", () => {
    const c = catalogWith(query("__proto__"), query("constructor", "installed"));
    const copy = new Catalog(JSON.parse(JSON.stringify(c.snapshot())));
    expect(copy.snapshot()).to.deep.equal(c.snapshot());
    expect(copy.query("g", "__proto__")!.state).to.equal("defined");
    expect(({} as Record<string, unknown>)["polluted"]).to.equal(undefined);
  });
});
