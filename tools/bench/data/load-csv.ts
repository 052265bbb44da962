// Bench data for the load suite, generated at bench time and never committed: a seeded
// R-MAT edge list written as "src,dst" CSV lines (integer vertex ids), and the matching
// vertex list (one id per line) for peers that need their vertices loaded first.
import { createWriteStream, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { once } from "node:events";
import { rmat } from "../rmat.js";

export interface LoadCsvFiles {
  edges: string;
  vertices: string;
  edgeCount: number;
  vertexCount: number;
  bytes: number;
}

/** Where generated files go (the repository's tools/bench/data/, next to the compiled generator's source). */
export function dataDirectory(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Compiled to dist/tools/bench/data: write under the source tree's tools/bench/data.
  const fromDist = join(here, "..", "..", "..", "..", "tools", "bench", "data");
  return existsSync(join(here, "..", "..", "..", "..", "package.json")) ? fromDist : here;
}

/** Writes (or reuses) the edge and vertex CSV files for `edges` R-MAT edges over 2^scale vertices. */
export async function ensureLoadCsv(edges: number, scale: number, seed = 42): Promise<LoadCsvFiles> {
  const dir = dataDirectory();
  mkdirSync(dir, { recursive: true });
  const edgesPath = join(dir, `rmat-s${scale}-e${edges}-seed${seed}.csv`);
  const verticesPath = join(dir, `rmat-s${scale}-vertices.csv`);
  const vertexCount = 2 ** scale;
  if (!existsSync(edgesPath)) {
    const graph = rmat({ scale, edges, seed });
    await writeLines(edgesPath, edges, (i) => `${graph.src[i]},${graph.dst[i]}`);
  }
  if (!existsSync(verticesPath)) await writeLines(verticesPath, vertexCount, (i) => String(i));
  return { edges: edgesPath, vertices: verticesPath, edgeCount: edges, vertexCount, bytes: statSync(edgesPath).size };
}

async function writeLines(path: string, count: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(path + ".tmp");
  const block: string[] = [];
  for (let i = 0; i < count; i++) {
    block.push(line(i));
    if (block.length === 65536 || i === count - 1) {
      if (!out.write(block.join("\n") + "\n")) await once(out, "drain");
      block.length = 0;
    }
  }
  out.end();
  await once(out, "finish");
  const { renameSync } = await import("node:fs");
  renameSync(path + ".tmp", path);
}
