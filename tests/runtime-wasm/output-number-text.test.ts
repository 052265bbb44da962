// Number text in query output takes shortcuts for the common values (whole DOUBLEs and
// FLOATs written with String, INTs that fit a JavaScript number without a BigInt). These
// tests check the shortcuts against independent references around every boundary: C's
// "%.<P>g" rebuilt from toPrecision, and BigInt's decimal text for 64-bit integers read
// from a typed output stream built here byte by byte.
import { expect } from "chai";
import { Out } from "../../runtime-wasm/query/abi.js";
import { decodeOutput } from "../../runtime-wasm/output/decode-output.js";
import { formatDouble, formatFloat } from "../../runtime-wasm/values/number-format.js";
import { mulberry32 } from "../../tools/bench/rmat.js";

/** "%.<digits>g" as C writes it, from toPrecision (which keeps trailing zeros and writes "e+7"). */
function referenceG(x: number, digits: number): string {
  if (x === 0) return "0";
  const text = x.toPrecision(digits);
  const [mantissa, exponent] = text.split("e");
  const trimmed = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
  if (exponent === undefined) return trimmed;
  const sign = exponent.startsWith("-") ? "-" : "+";
  return `${trimmed}e${sign}${exponent.replace(/^[+-]/, "").padStart(2, "0")}`;
}

/** An output stream of one PRINT holding `{"n": [values...]}` as INTs. */
function intStream(values: bigint[]): Uint8Array {
  const bytes = new Uint8Array(1 + 5 + 1 + values.length * 9 + 2);
  const view = new DataView(bytes.buffer);
  let at = 0;
  bytes[at++] = Out.PrintBegin;
  bytes[at++] = Out.Key;
  view.setUint32(at, 0, true);
  at += 4;
  bytes[at++] = Out.ArrayBegin;
  for (const v of values) {
    bytes[at++] = Out.Int;
    view.setBigInt64(at, v, true);
    at += 8;
  }
  bytes[at++] = Out.End;
  bytes[at++] = Out.End;
  return bytes;
}

describe("output: number text shortcuts", () => {
  const powers = [0, 1, 2, 3, 6, 7, 8, 15, 16, 17, 20, 21, 22];

  it("whole DOUBLEs and FLOATs read as C's %.16g / %.7g, at every digit-count boundary and at 2^53", () => {
    const cases = new Set<number>();
    for (const p of powers) for (const d of [-1, 0, 1]) for (const sign of [1, -1]) cases.add(sign * (10 ** p + d));
    for (const d of [-2, -1, 0, 1, 2]) for (const sign of [1, -1]) cases.add(sign * (2 ** 53 + d));
    const rnd = mulberry32(9);
    for (let i = 0; i < 2000; i++) cases.add(Math.floor((rnd() - 0.5) * 10 ** Math.floor(rnd() * 19)));
    for (const x of cases) {
      expect(formatDouble(x), `double ${x}`).to.equal(referenceG(x, 16));
      const f = Math.fround(x);
      expect(formatFloat(f), `float ${f}`).to.equal(referenceG(f, 7));
    }
    // whole values past the shortcut keep the exponent form
    expect(formatDouble(1e16)).to.equal("1e+16");
    expect(formatDouble(12345678901234567)).to.equal("1.234567890123457e+16");
    expect(formatFloat(12345678)).to.equal("1.234568e+07");
    expect(formatFloat(1234567)).to.equal("1234567");
    expect(formatDouble(-0)).to.equal("0");
  });

  it("INTs decode to their exact decimal text on both sides of 2^53 and at the 64-bit limits", () => {
    const values: bigint[] = [0n, 1n, -1n, 2n ** 31n, -(2n ** 31n), 2n ** 32n - 1n, 2n ** 32n, -(2n ** 32n), 2n ** 63n - 1n, -(2n ** 63n)];
    for (const d of [-2n, -1n, 0n, 1n, 2n]) values.push(2n ** 53n + d, -(2n ** 53n) + d);
    const rnd = mulberry32(4);
    for (let i = 0; i < 3000; i++) {
      const high = BigInt(Math.floor(rnd() * 2 ** 32)) - 2n ** 31n;
      const low = BigInt(Math.floor(rnd() * 2 ** 32));
      values.push(BigInt.asIntN(64, (high << BigInt(Math.floor(rnd() * 33))) * 2n ** 32n + low));
      values.push(BigInt(Math.floor((rnd() - 0.5) * 2 ** 40)));
    }
    const text = decodeOutput(intStream(values), { keys: ["n"] });
    expect(text).to.equal(`[{"n":[${values.map((v) => v.toString()).join(",")}]}]`);
  });
});
