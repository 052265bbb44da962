// `npm run bench`: runs the bench programs of tools/bench one after another and prints their
// numbers with the machine's details. Benches are programs, not tests: nothing here asserts.
import { runRestBench } from "./rest.js";

await runRestBench({ vertices: 400_000, edges: 4_000_000, seconds: 5, connections: 32 });
