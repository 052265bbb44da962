// The list of bench suites `npm run bench` runs, in order. Each line registers one suite
// module exporting `suite: BenchSuite`. Add a line when a suite is written.
import { registerSuite } from "./run.js";

registerSuite(async () => (await import("./bind.js")).suite);
registerSuite(async () => (await import("./store.js")).suite);
registerSuite(async () => (await import("./rest.js")).suite);
registerSuite(async () => (await import("./load.js")).suite);
registerSuite(async () => (await import("./frontend.js")).suite);
registerSuite(async () => (await import("./queries.js")).suite);
registerSuite(async () => (await import("./algorithms.js")).suite);
registerSuite(async () => (await import("./durability.js")).suite);
