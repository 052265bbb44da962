// The list of bench suites `npm run bench` runs, in order. Each line registers one suite
// module exporting `suite: BenchSuite`. Add a line when a suite is written.
import { registerSuite } from "./run.js";

registerSuite(async () => ({
  name: "rest",
  description: "REST server: upserts in batches, GET by id under load, memory per edge",
  run: async () => (await import("./rest.js")).runRestBench({ vertices: 400_000, edges: 4_000_000, seconds: 5, connections: 32 }),
}));
registerSuite(async () => (await import("./load.js")).suite);
registerSuite(async () => (await import("./bind.js")).suite);
