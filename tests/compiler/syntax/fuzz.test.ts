// Generated inputs: thousands of random mutations of the corpus (token deletions, swaps,
// duplications, insertions, truncations, random bytes) must never throw or hang the front
// end, and each must give diagnostics or a well-formed AST. The PRNG is seeded, so a failure
// names the seed and case that reproduce it (FUZZ_SEED=... FUZZ_COUNT=... to vary).
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { analyzeSource } from "../../../compiler/front-end.js";
import { walkAst } from "../../../compiler/ast/walk.js";
import { dumpAst } from "../../../compiler/ast/dump.js";
import type { AstScript } from "../../../compiler/ast/index.js";
import { mulberry32 as prng } from "../../../tools/bench/rmat.js";

const corpusDir = fileURLToPath(new URL("../../../../tests/compiler/corpus/", import.meta.url));
const seed = Number(process.env.FUZZ_SEED ?? 20240601);
const count = Number(process.env.FUZZ_COUNT ?? 2000);

/** The corpus cut into top-level chunks (each CREATE ... block or command), as token lists. */
function corpusChunks(): string[][] {
  const chunks: string[][] = [];
  for (const file of readdirSync(corpusDir).filter((f) => f.endsWith(".gsql")).sort()) {
    const text = readFileSync(join(corpusDir, file), "utf8");
    for (const chunk of text.split(/\n(?=[A-Za-z])/)) {
      // Words, numbers, strings, accumulators, multi-character operators, single characters, whitespace.
      const tokens = chunk.match(/"(?:\\.|[^"\\\n])*"|@@?\w+|\$\w+|\w+|->|\+=|==|!=|<=|>=|<<|\.\.|\s+|./g) ?? [];
      if (tokens.length > 0) chunks.push(tokens);
    }
  }
  return chunks;
}

function mutate(tokens: string[], random: () => number): string {
  const out = [...tokens];
  const pick = () => Math.floor(random() * out.length);
  const mutations = 1 + Math.floor(random() * 3);
  for (let m = 0; m < mutations && out.length > 0; m++) {
    const i = pick();
    switch (Math.floor(random() * 7)) {
      case 0: out.splice(i, 1); break;                                     // delete a token
      case 1: { const j = pick(); [out[i], out[j]] = [out[j]!, out[i]!]; break; } // swap two tokens
      case 2: out.splice(i, 0, out[i]!); break;                             // duplicate a token
      case 3: out.splice(i, 0, out[pick()]!); break;                       // insert a token from elsewhere
      case 4: out.length = i; break;                                        // truncate
      case 5: {                                                             // random bytes
        const bytes = Array.from({ length: 1 + Math.floor(random() * 4) }, () => String.fromCharCode(Math.floor(random() * 0x3000)));
        out.splice(i, 0, bytes.join(""));
        break;
      }
      default: {                                                            // drop a closing bracket or quote
        const closers = out.flatMap((t, k) => (/^[)\]};"]$/.test(t) ? [k] : []));
        if (closers.length > 0) out.splice(closers[Math.floor(random() * closers.length)]!, 1);
      }
    }
  }
  return out.join("");
}

/** Every node has a kind and a range inside the text, with start before end. */
function checkTree(ast: AstScript, length: number): void {
  walkAst(ast, (node) => {
    expect(node.kind, "node kind").to.be.a("string");
    const { start, end } = node.range;
    expect(start.offset <= end.offset && end.offset <= length, `range of ${node.kind}`).to.equal(true);
  });
}

describe("GSQL front end under generated inputs", function () {
  this.timeout(60000);

  it(`survives ${count} mutations of the corpus (seed ${seed})`, () => {
    const random = prng(seed);
    const chunks = corpusChunks();
    let withDiagnostics = 0;
    for (let n = 0; n < count; n++) {
      const text = mutate(chunks[Math.floor(random() * chunks.length)]!, random);
      let result;
      try {
        result = analyzeSource(text, `fuzz-${n}.gsql`, { astOnly: true });
      } catch (error) {
        throw new Error(`front end threw on case ${n} (seed ${seed}): ${String(error)}\n--- input ---\n${text}`);
      }
      const internal = result.log.diagnostics.filter((d) => d.code === "GSQL1099");
      expect(internal.map((d) => d.message), `case ${n} (seed ${seed})\n${text}`).to.deep.equal([]);
      if (result.log.diagnostics.length > 0) withDiagnostics++;
      checkTree(result.ast, text.length);
      expect(() => JSON.parse(dumpAst(result.ast))).to.not.throw();
    }
    // Most mutations break the text; a few happen to stay valid GSQL.
    expect(withDiagnostics).to.be.greaterThan(count / 2);
  });

  it("survives random bytes", () => {
    const random = prng(seed + 1);
    for (let n = 0; n < 200; n++) {
      const text = Array.from({ length: Math.floor(random() * 400) }, () => String.fromCharCode(Math.floor(random() * 0x800))).join("");
      const result = analyzeSource(text, "bytes.gsql", { astOnly: true });
      expect(result.log.diagnostics.filter((d) => d.code === "GSQL1099")).to.deep.equal([]);
      checkTree(result.ast, text.length);
    }
  });
});
