// Loads a peer system for the bench lab from tools/bench/peers/ (installed on demand by
// `npm run bench:peers`, not by the project's own npm ci). Returns undefined when the peer
// is not installed, so a suite can report that plainly instead of failing.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
// dist/tools/bench → repository root
const peersPackage = join(here, "..", "..", "..", "tools", "bench", "peers", "package.json");

export async function importPeer(name: string): Promise<any | undefined> {
  let resolved: string;
  try {
    resolved = createRequire(peersPackage).resolve(name);
  } catch {
    return undefined;
  }
  const module = await import(pathToFileURL(resolved).href);
  return module.default ?? module;
}
