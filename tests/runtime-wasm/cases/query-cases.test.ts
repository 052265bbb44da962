// Runs every query-case file (cases/*.case, format in case-file.ts): each builds its graph
// in a fresh store, compiles its queries through the whole compiler, and checks each run's
// results exactly; once compiled as a default INSTALL does (level 1) and once as INSTALL
// QUERY -OPTIMIZE does (level 3, the heavier IR passes and Binaryen's optimiser).
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { caseData, parseCase } from "./case-file.js";
import { closeSharedRuntime, compileGsql, createDatabase, sharedRuntime, type CompiledForTest } from "../queries/gsql-harness.js";
import type { QueryArgument } from "../../../runtime-wasm/query/query-runtime.js";
import { analyzeSource } from "../../../compiler/front-end.js";

const dir = fileURLToPath(new URL(".", import.meta.url)).replace(/\/dist\//, "/");

/** Vertex-record arrays compare as sets: sorted by id (then type) unless the run is ordered. */
function normalize(value: unknown, ordered: boolean): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => normalize(v, ordered));
    const records = items.length > 0 && items.every((v) => typeof v === "object" && v !== null && "v_id" in v);
    if (records && !ordered) {
      return [...items].sort((a, b) => {
        const [x, y] = [a as { v_id: string; v_type: string }, b as { v_id: string; v_type: string }];
        return x.v_type === y.v_type ? (x.v_id < y.v_id ? -1 : x.v_id > y.v_id ? 1 : 0) : x.v_type < y.v_type ? -1 : 1;
      });
    }
    return items;
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, ordered)]));
  }
  return value;
}

describe("query-case files", function () {
  this.timeout(60000);
  after(closeSharedRuntime);

  for (const level of [1, 3] as const)
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".case")).sort()) {
    describe(`${file}${level === 1 ? "" : ` at -O${level}`}`, () => {
      const c = parseCase(readFileSync(join(dir, file), "utf8"), file);
      let compiled: Map<string, CompiledForTest>;
      let db: ReturnType<typeof createDatabase>;

      before(async () => {
        const schema = analyzeSource(c.schema, file).bound!.schema;
        db = createDatabase(c.schema, caseData(c.data, schema));
        compiled = new Map();
        for (const q of c.queries) {
          const name = /CREATE\s+(?:OR\s+REPLACE\s+)?(?:DISTRIBUTED\s+)?QUERY\s+(\w+)/i.exec(q)?.[1];
          if (!name) throw new Error(`${file}: a query section without CREATE QUERY`);
          compiled.set(name, await compileGsql(db, q, level));
        }
      });

      c.runs.forEach((run) => {
        it(`line ${run.line}: run ${run.query} ${JSON.stringify(run.args, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))}`, async () => {
          const q = compiled.get(run.query);
          if (!q) throw new Error(`no query ${run.query} in ${file}`);
          const r = await sharedRuntime().run(db.store, db.graph, q, run.args as QueryArgument[], { timeoutMs: 20000, ...run.options });
          if (run.error) {
            expect(r.ok, r.ok ? r.results : "").to.equal(false);
            if (!r.ok) {
              expect(r.kind).to.equal(run.error.kind);
              if (run.error.message !== undefined) expect(r.message).to.equal(run.error.message);
            }
            return;
          }
          if (!r.ok) throw new Error(`${r.kind}: ${r.message}`);
          expect(normalize(JSON.parse(r.results), run.ordered)).to.deep.equal(normalize(run.expect, run.ordered));
        });
      });
    });
  }
});
