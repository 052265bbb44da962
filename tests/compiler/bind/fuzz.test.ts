// Random mutations of valid files (token deletions, swaps, duplications, truncation) never
// make parse + bind throw; each mutated text still yields a result.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { check } from "./helpers.js";
import { SOURCE_DIR } from "./valid.test.js";
import { mulberry32 as rng } from "../../../tools/bench/rmat.js";

function mutate(text: string, rand: () => number): string {
  const tokens = text.match(/\s+|[A-Za-z_@][\w@']*|\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|./gs) ?? [];
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n && tokens.length > 1; i++) {
    const at = Math.floor(rand() * tokens.length);
    const other = Math.floor(rand() * tokens.length);
    switch (Math.floor(rand() * 4)) {
      case 0: tokens.splice(at, 1); break;
      case 1: [tokens[at], tokens[other]] = [tokens[other]!, tokens[at]!]; break;
      case 2: tokens.splice(at, 0, tokens[other]!); break;
      default: tokens.length = Math.max(1, at); break;
    }
  }
  return tokens.join("");
}

describe("bind: fuzzed inputs never throw", () => {
  const files = readdirSync(join(SOURCE_DIR, "valid")).filter((f) => f.endsWith(".gsql")).sort();
  const texts = files.map((f) => readFileSync(join(SOURCE_DIR, "valid", f), "utf8"));
  // Kept small: the front end's own fuzz suite covers parsing in depth; this one targets
  // the binder's handling of the partial ASTs that error recovery produces.
  const PER_FILE = Number(process.env.BIND_FUZZ ?? 100);
  texts.forEach((text, fi) => {
    it(`${PER_FILE} mutations of ${files[fi]}`, function () {
      this.timeout(120000);
      const rand = rng(1000 + fi);
      for (let i = 0; i < PER_FILE; i++) {
        const m = mutate(text, rand);
        let result;
        try {
          result = check(m, `fuzz-${fi}-${i}.gsql`);
        } catch (error) {
          throw new Error(`mutation ${i} of ${files[fi]} threw: ${(error as Error).stack}\n--- input ---\n${m}`);
        }
        expect(result.bound).to.not.equal(undefined);
      }
    });
  });
});
