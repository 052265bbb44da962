// Golden bound trees: a representative subset of the valid files' queries, dumped with
// dumpBound and compared with the files under golden/. Regenerate with
// `UPDATE_GOLDEN=1 npx mocha dist/tests/compiler/bind/golden.test.js`.
import { expect } from "chai";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dumpBound } from "../../../compiler/bind/index.js";
import { check } from "./helpers.js";
import { SOURCE_DIR } from "./valid.test.js";

const PICKS: Record<string, string[]> = {
  "01-semantics-examples.gsql": ["arith", "collections", "heaps", "selects", "postAccumOrder", "undirected", "wildcard",
    "params", "exceptions", "sub", "caller", "dml", "dmlControl"],
  "02-v2-patterns.gsql": ["hops", "postAccums", "typed", "v1Style", "sqlTable"],
  "03-ddl-and-jobs.gsql": ["topRated"],
};

describe("bind: golden bound trees", () => {
  const update = process.env.UPDATE_GOLDEN === "1";
  for (const [file, names] of Object.entries(PICKS)) {
    const text = readFileSync(join(SOURCE_DIR, "valid", file), "utf8");
    const { bound } = check(text, file);
    for (const name of names) {
      it(`${file} ${name}`, () => {
        const q = bound.queries.find((x) => x.name === name);
        expect(q, name).to.not.equal(undefined);
        const actual = dumpBound(q!);
        const path = join(SOURCE_DIR, "golden", `${name}.bound.json`);
        if (update || !existsSync(path)) {
          mkdirSync(join(SOURCE_DIR, "golden"), { recursive: true });
          writeFileSync(path, actual);
        }
        expect(actual).to.equal(readFileSync(path, "utf8"));
      });
    }
  }
});
