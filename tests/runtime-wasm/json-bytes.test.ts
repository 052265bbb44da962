// The byte buffer query output is formatted into (runtime-wasm/output/json-bytes.ts) against
// JavaScript's own JSON text: strings quoted from JS strings and from UTF-8 bytes (escapes,
// control characters, non-ASCII, surrogates), integers at every digit-count boundary, text
// taken back out at a mark, and the reused buffer never leaking one response into the next.
// Then whole output streams with such strings as values and as keys, decoded and compared
// with JSON.stringify of the same data.
import { expect } from "chai";
import { Out } from "../../runtime-wasm/query/abi.js";
import { decodeOutput } from "../../runtime-wasm/output/decode-output.js";
import { JsonBytes } from "../../runtime-wasm/output/json-bytes.js";
import { mulberry32 } from "../../tools/bench/rmat.js";

/** Random strings drawn from the characters that need care, plus plain ASCII. */
function randomStrings(seed: number, count: number): string[] {
  const rnd = mulberry32(seed);
  const pool = ['"', "\\", "/", "\n", "\r", "\t", "\b", "\f", "\u0000", "\u0001", "\u001f", "\u007f", "\u0080", "é", "ß", "€", "\u2028", "\u2029", "😀", "\ud800", "\udfff", "\uffff", "a", "Z", "0", " ", "{", "}"];
  return Array.from({ length: count }, () => {
    let s = "";
    const n = Math.floor(rnd() * 12);
    for (let i = 0; i < n; i++) s += rnd() < 0.5 ? pool[Math.floor(rnd() * pool.length)] : String.fromCharCode(32 + Math.floor(rnd() * 95));
    return s;
  });
}

describe("output: JSON text written as bytes", () => {
  it("quotes JS strings exactly as JSON.stringify does", () => {
    for (const s of ["", "plain", 'say "hi"', "back\\slash", "\u0000\u001f\n", "naïve €", "😀", "\ud800 lone", ...randomStrings(1, 3000)]) {
      const out = new JsonBytes();
      out.quoted(s);
      expect(out.finish(), JSON.stringify(s)).to.equal(JSON.stringify(s));
    }
  });

  it("quotes UTF-8 bytes as JSON.stringify quotes their text", () => {
    for (const s of ["", "x", '"\\"', "\u0000\u0007\u001f", "Grüße", "😀😀", ...randomStrings(2, 3000)]) {
      const bytes = Buffer.from(s, "utf8");
      // padding around the string: only the given range is read
      const padded = Buffer.concat([Buffer.from("ab"), bytes, Buffer.from("cd")]);
      const out = new JsonBytes();
      out.quotedUtf8(padded, 2, bytes.length);
      expect(out.finish()).to.equal(JSON.stringify(bytes.toString("utf8")));
    }
  });

  it("writes safe integers in decimal at every digit-count boundary and sign", () => {
    const values = [0, 1, 9, 10, 11, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 31, -(2 ** 31), 2 ** 32];
    for (let p = 1; p <= 15; p++) for (const d of [-1, 0, 1]) values.push(10 ** p + d, -(10 ** p + d));
    const rnd = mulberry32(3);
    for (let i = 0; i < 2000; i++) values.push(Math.floor((rnd() - 0.5) * 2 ** Math.floor(rnd() * 54)));
    const out = new JsonBytes();
    for (const v of values) (out.integer(v), out.text(","));
    expect(out.finish()).to.equal(values.map((v) => `${v},`).join(""));
  });

  it("takes text back out at a mark, and a reused buffer holds nothing of the last text", () => {
    const big = new JsonBytes();
    for (let i = 0; i < 20000; i++) big.text("0123456789 é ");
    expect(big.finish().length).to.equal(20000 * 13);
    const small = new JsonBytes();
    small.text("[");
    const mark = small.mark();
    small.quoted("k€y");
    expect(small.cut(mark)).to.equal('"k€y"');
    small.text("1]");
    // ASCII only now, though the buffer held non-ASCII before
    expect(small.finish()).to.equal("[1]");
  });

  it("decodes output streams with strings as values and keys like JSON.stringify of the same data", () => {
    const strings = randomStrings(4, 400).map((s) => Buffer.from(s, "utf8").toString("utf8"));
    const encode = (s: string) => {
      const b = Buffer.from(s, "utf8");
      const len = Buffer.alloc(4);
      len.writeUInt32LE(b.length);
      return [len, b];
    };
    const parts: Buffer[] = [Buffer.from([Out.PrintBegin, Out.Key, 0, 0, 0, 0, Out.ArrayBegin])];
    for (const s of strings) parts.push(Buffer.from([Out.String]), ...encode(s));
    parts.push(Buffer.from([Out.End, Out.Key, 1, 0, 0, 0, Out.ObjectBegin]));
    // distinct keys, as text and as a value used as the key
    const keys = [...new Set(strings)];
    keys.forEach((k, i) => parts.push(Buffer.from([i % 2 ? Out.KeyText : Out.KeyOf]), ...(i % 2 ? [] : [Buffer.from([Out.String])]), ...encode(k), Buffer.from([Out.Int]), Buffer.from(new BigInt64Array([BigInt(i)]).buffer)));
    parts.push(Buffer.from([Out.End, Out.End]));
    const text = decodeOutput(new Uint8Array(Buffer.concat(parts)), { keys: ["list", "map"] });
    // the map's members in stream order (an object would put integer-like keys first)
    const map = `{${keys.map((k, i) => `${JSON.stringify(k)}:${i}`).join(",")}}`;
    expect(text === `[{"list":${JSON.stringify(strings)},"map":${map}}]`, text.slice(0, 200)).to.equal(true);
  });
});
