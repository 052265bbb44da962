// The host side of JSONOBJECT / JSONARRAY: canonical text (numbers kept exactly as written),
// the getters' results and errors, and generated malformed texts that must fail cleanly.
import { expect } from "chai";
import { RuntimeError } from "../../runtime-wasm/query/abi.js";
import { jsonGet, parseJson, parseJsonOf } from "../../runtime-wasm/query/host-json.js";
import { HostOpError } from "../../runtime-wasm/query/host-strings.js";
import { mulberry32 } from "../../tools/bench/rmat.js";

const failsWith = (code: number, fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(HostOpError);
    expect((e as HostOpError).code).to.equal(code);
    return;
  }
  expect.fail("no error");
};

describe("host JSON values", () => {
  it("canonical text drops whitespace and keeps numbers, escapes and key order exactly", () => {
    const text = ' { "b" : 18446744073709551615 , "a":[ 1.50, -0, 2e10, "\\u00e9\\n" ], "c" : { } } ';
    expect(parseJsonOf("object", text)).to.equal('{"b":18446744073709551615,"a":[1.50,-0,2e10,"é\\n"],"c":{}}');
    expect(parseJsonOf("array", "[ ]")).to.equal("[]");
  });

  it("getters read members by key or index, exactly for 64-bit integers", () => {
    const o = parseJsonOf("object", '{"i": -9223372036854775808, "d": 0.1, "s": "x", "t": true, "o": {"k": [1]}, "k": 1, "k": 2}');
    expect(jsonGet("object", "int", o, "i", 0)).to.equal(-9223372036854775808n);
    expect(jsonGet("object", "double", o, "d", 0)).to.equal(0.1);
    expect(jsonGet("object", "double", o, "i", 0)).to.equal(-9223372036854775808);
    expect(jsonGet("object", "string", o, "s", 0)).to.equal("x");
    expect(jsonGet("object", "bool", o, "t", 0)).to.equal(1n);
    expect(jsonGet("object", "object", o, "o", 0)).to.equal('{"k":[1]}');
    expect(jsonGet("object", "int", o, "k", 0), "a repeated key: the last one").to.equal(2n);
    expect(jsonGet("object", "contains", o, "o", 0)).to.equal(1n);
    expect(jsonGet("object", "contains", o, "z", 0)).to.equal(0n);
    expect(jsonGet("object", "size", o, "", 0)).to.equal(7n);
    expect(jsonGet("object", "size", "", "", 0), "the default value is empty").to.equal(0n);
    const a = parseJsonOf("array", '[10, "s", [2, 3]]');
    expect(jsonGet("array", "int", a, "", 0)).to.equal(10n);
    expect(jsonGet("array", "array", a, "", 2)).to.equal("[2,3]");
    expect(jsonGet("array", "size", a, "", 0)).to.equal(3n);
  });

  it("a missing member or a member of another type is a run-time error", () => {
    const o = parseJsonOf("object", '{"s": "x", "r": 2.5, "n": null}');
    for (const [getter, key] of [["int", "s"], ["int", "r"], ["string", "r"], ["bool", "n"], ["object", "s"], ["int", "missing"]] as const) {
      failsWith(RuntimeError.JsonAccess, () => jsonGet("object", getter, o, key, 0));
    }
    const a = parseJsonOf("array", "[1]");
    failsWith(RuntimeError.JsonAccess, () => jsonGet("array", "int", a, "", 1));
    failsWith(RuntimeError.JsonAccess, () => jsonGet("array", "int", a, "", -1));
  });

  it("malformed texts, and texts of the other kind, fail with BadJson", () => {
    for (const bad of ["", "{", '{"a":}', "[1,]", "{'a':1}", '{"a":1} x', "01", "[1e]", '"\\x"', "nul", "[1]"]) {
      failsWith(RuntimeError.BadJson, () => parseJsonOf("object", bad));
    }
    failsWith(RuntimeError.BadJson, () => parseJsonOf("array", "{}"));
    failsWith(RuntimeError.BadJson, () => parseJsonOf("object", "[".repeat(100000)));
  });

  it("generated texts: valid JSON round-trips to what JSON.parse reads, anything else fails cleanly", () => {
    const random = mulberry32(7);
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', 'a', '1', '-', '.', 'e', ' ', 't', 'true', 'null', '\\', '0'];
    for (let n = 0; n < 3000; n++) {
      let text = "";
      const len = Math.floor(random() * 14);
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      let reference: unknown;
      let valid = true;
      try {
        reference = JSON.parse(text);
      } catch {
        valid = false;
      }
      const ours = parseJson(text);
      expect(ours !== undefined, text).to.equal(valid);
      if (valid && typeof reference === "object" && reference !== null && !Array.isArray(reference)) {
        expect(JSON.parse(parseJsonOf("object", text)), text).to.deep.equal(reference);
      }
    }
  });
});
