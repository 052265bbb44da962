// The two runtimes the parallel SELECT tests compare: one that runs every SELECT on the
// query's thread, and one that splits every eligible SELECT into chunks of one source over
// three threads. Made before the file's tests and closed after them.
import { QueryRuntime, type QueryArgument, type QueryResult } from "../../../runtime-wasm/query/query-runtime.js";
import { compileGsql, type TestDatabase } from "./gsql-harness.js";

export type OkResult = QueryResult & { ok: true };

export class SplitRuns {
  single!: QueryRuntime;
  split!: QueryRuntime;

  constructor() {
    before(() => {
      this.single = new QueryRuntime({ workers: 1, selectThreads: 1 });
      this.split = new QueryRuntime({ workers: 1, selectThreads: 3, parallelMinSources: 0, parallelChunk: 1, parallelJoinWaitMs: 200, graceMs: 500 });
    });
    after(async () => {
      await this.single.close();
      await this.split.close();
    });
  }

  /** The query run on one thread and split; both must succeed. */
  async both(db: TestDatabase, text: string, args: QueryArgument[] = []): Promise<{ one: OkResult; many: OkResult }> {
    const q = await compileGsql(db, text);
    const one = await this.single.run(db.store, db.graph, q, args, { timeoutMs: 30000 });
    if (!one.ok) throw new Error(`one thread: ${one.kind}: ${one.message}`);
    // the first split run may start before the helper threads are up: run until helpers took part
    let many: QueryResult | undefined;
    for (let attempt = 0; attempt < 10; attempt++) {
      many = await this.split.run(db.store, db.graph, q, args, { timeoutMs: 30000 });
      if (!many.ok || (many.parallel?.helperChunks ?? 0) > 0) break;
    }
    if (!many!.ok) throw new Error(`split: ${many!.kind}: ${many!.message}`);
    return { one, many: many! as OkResult };
  }
}
