import { expect } from "chai";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readLines, fieldSplitter, extractJsonTokens, type LineSource } from "../../../server/loading/reader/index.js";

async function lines(source: LineSource, eol: string, maxLineLength = 1000, chunkBytes?: number) {
  const seen: [number, string][] = [];
  const oversize: number[] = [];
  const count = await readLines(source, { eol, maxLineLength, chunkBytes }, { line: (t, n) => void seen.push([n, t]), oversize: (n) => void oversize.push(n) });
  return { seen, oversize, count };
}

describe("loader reader: lines", () => {
  it("cuts at \\n, keeps the last line without an end-of-line, skips blank lines", async () => {
    const r = await lines({ kind: "body", data: "a,b\n\nc,d\ne" }, "\n");
    expect(r.seen).to.deep.equal([[1, "a,b"], [2, "c,d"], [3, "e"]]);
  });
  it("handles CR LF and 1–4 character markers, also across chunk boundaries", async () => {
    for (const eol of ["\r\n", "|", "#$#", "<EL>"]) {
      const data = ["alpha", "beta", "gamma delta", "é€😀x"].join(eol) + eol;
      for (const chunk of [1, 2, 3, 5, 64]) {
        const r = await lines({ kind: "body", data }, eol, 1000, chunk);
        expect(r.seen.map((x) => x[1]), `eol ${JSON.stringify(eol)} chunk ${chunk}`).to.deep.equal(["alpha", "beta", "gamma delta", "é€😀x"]);
      }
    }
  });
  it("a UTF-8 byte order mark at the start is dropped, also when split across chunks", async () => {
    for (const chunk of [1, 2, 64]) {
      const r = await lines({ kind: "body", data: Buffer.from("\uFEFFid,name\n1,\uFEFFx\n", "utf8") }, "\n", 1000, chunk);
      expect(r.seen.map((x) => x[1])).to.deep.equal(["id,name", "1,\uFEFFx"]);
    }
  });
  it("with eol \\n a CR stays in the line (no implicit CR LF)", async () => {
    const r = await lines({ kind: "body", data: "a\r\nb\r\n" }, "\n");
    expect(r.seen.map((x) => x[1])).to.deep.equal(["a\r", "b\r"]);
  });
  it("skips and counts oversize lines without holding them, then goes on", async () => {
    const huge = "x".repeat(5000);
    for (const chunk of [7, 100, 1 << 20]) {
      const r = await lines({ kind: "body", data: `ok1\n${huge}\nok2\n${huge}` }, "\n", 100, chunk);
      expect(r.seen).to.deep.equal([[1, "ok1"], [3, "ok2"]]);
      expect(r.oversize).to.deep.equal([2, 4]);
    }
  });
  it("reads a file path in chunks and survives binary garbage", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wg-reader-"));
    const path = join(dir, "g.bin");
    const garbage = Buffer.alloc(3000);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919) % 256;
    writeFileSync(path, Buffer.concat([Buffer.from("head\n"), garbage, Buffer.from("\ntail\n")]));
    const r = await lines({ kind: "path", path }, "\n", 1 << 20, 64);
    expect(r.seen[0]).to.deep.equal([1, "head"]);
    expect(r.seen[r.seen.length - 1]![1]).to.equal("tail");
  });
});

describe("loader reader: fields", () => {
  it("splits on 1–4 character separators with no escapes", () => {
    const out: string[] = [];
    expect(fieldSplitter(",", undefined)("a,,b\\,c", out)).to.equal(4);
    expect(out.slice(0, 4)).to.deep.equal(["a", "", "b\\", "c"]);
    const n = fieldSplitter("||", undefined)("1||2|3||", out);
    expect(out.slice(0, n)).to.deep.equal(["1", "2|3", ""]);
  });
  it("without QUOTE, quotes are data", () => {
    const out: string[] = [];
    const n = fieldSplitter(",", undefined)('"a,b",c', out);
    expect(out.slice(0, n)).to.deep.equal(['"a', 'b"', "c"]);
  });
  it("QUOTE=double: separators inside quotes are data; only the first pair's inside is kept", () => {
    const split = fieldSplitter(",", '"');
    const out: string[] = [];
    const cases: [string, string[]][] = [
      ['"a,b",c', ["a,b", "c"]],
      ['a"b"c"d",e', ["b", "e"]],
      ['1,"x, y, z",3', ["1", "x, y, z", "3"]],
      ['"unterminated,2', ['"unterminated', "2"]],
      ['""', [""]],
      ["'single',2", ["'single'", "2"]],
    ];
    for (const [line, want] of cases) {
      const n = split(line, out);
      expect(out.slice(0, n), line).to.deep.equal(want);
    }
  });
  it("QUOTE=single uses apostrophes", () => {
    const out: string[] = [];
    const n = fieldSplitter("|", "'")("'a|b'|\"c|d\"", out);
    expect(out.slice(0, n)).to.deep.equal(["a|b", '"c', 'd"']);
  });
});

describe("loader reader: JSON lines", () => {
  it("extracts key paths in any key order; absent and null keys are undefined", () => {
    const out: (string | undefined)[] = [];
    const paths = [["enc"], ["indent", "len"], ["missing"], ["n"], ["flag"], ["arr"]];
    expect(extractJsonTokens('{"indent":{"len":30},"enc":"UTF-7","n":null,"flag":true,"arr":[1,{"a":2}]}', paths, out)).to.equal(true);
    expect(out).to.deep.equal(["UTF-7", "30", undefined, undefined, "true", '[1,{"a":2}]']);
  });
  it("rejects lines that are not a JSON object", () => {
    for (const bad of ["{", "[1,2]", '"s"', "42", "null", "{'a':1}", "\u0000"]) {
      expect(extractJsonTokens(bad, [["a"]], []), bad).to.equal(false);
    }
  });
});
