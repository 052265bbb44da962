// The request-body JSON reader: duplicate keys kept, exact 64-bit integers, depth limit,
// positions in syntax errors; and generated inputs agree with JSON.parse where it applies.
import { expect } from "chai";
import { JsonSyntaxError, parseJsonBody, readJsonBody, type JsonReader, type JsonValue } from "../../server/http/json-body.js";

/** Back to plain JS (last key wins, bigint as string) to compare with JSON.parse. */
function plain(v: JsonValue): unknown {
  if (typeof v === "bigint") return `big:${v}`;
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") return Object.fromEntries(v.entries.map(([k, x]) => [k, plain(x)]));
  return v;
}

function syntaxError(text: string, maxDepth?: number): JsonSyntaxError {
  try {
    parseJsonBody(text, { maxDepth });
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e;
    throw e;
  }
  throw new Error(`no error for ${text}`);
}

describe("JSON body reader", () => {
  it("keeps repeated keys in order", () => {
    const v = parseJsonBody('{"a":1,"b":{"x":1,"x":2},"a":3}');
    expect(v).to.deep.equal({ entries: [["a", 1], ["b", { entries: [["x", 1], ["x", 2]] }], ["a", 3]] });
  });

  it("keeps integers beyond 2^53 exact as bigint and small ones as numbers", () => {
    const v = parseJsonBody("[9007199254740993, -9223372036854775808, 18446744073709551615, 42, 1.5, 1e3, -0, 123456789012345]");
    expect(v).to.deep.equal([9007199254740993n, -9223372036854775808n, 18446744073709551615n, 42, 1.5, 1000, -0, 123456789012345]);
  });

  it("decodes every string escape", () => {
    expect(parseJsonBody(String.raw`"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"`)).to.equal('a"b\\c/d\b\f\n\r\té😀');
  });

  it("reports line and column of malformed text", () => {
    const e = syntaxError('{\n  "a": 1,\n  "b" 2\n}');
    expect([e.line, e.column]).to.deep.equal([3, 7]);
    expect(e.message).to.equal("Expected ':' but found '2' at line 3, column 7");
    expect(syntaxError('{"a":1').message).to.equal("Unexpected end of body, expected ',' or '}' at line 1, column 7");
    expect(syntaxError("").message).to.equal("Empty body, a JSON value was expected at line 1, column 1");
    expect(syntaxError('{"a":tru}').message).to.equal("Unexpected character 't' at line 1, column 6");
    expect(syntaxError('{"a":"x\ny"}').message).to.equal("Control character in string at line 1, column 8");
    expect(syntaxError("[1,]").message).to.equal("Unexpected character ']' at line 1, column 4");
    expect(syntaxError("[01]").message).to.equal("Expected ',' or ']' but found '1' at line 1, column 3");
    expect(syntaxError("{} x").message).to.equal("Unexpected text after the JSON value at line 1, column 4");
    expect(syntaxError('"\\x"').message).to.equal("Invalid escape in string at line 1, column 2");
  });

  it("refuses nesting deeper than the limit without exhausting the stack", () => {
    expect(parseJsonBody("[".repeat(5) + "]".repeat(5), { maxDepth: 5 })).to.deep.equal([[[[[]]]]]);
    expect(syntaxError("[".repeat(6) + "]".repeat(6), 5).message).to.equal("JSON nesting deeper than 5 levels at line 1, column 6");
    expect(syntaxError("[".repeat(100000)).message).to.match(/^JSON nesting deeper than 64 levels/);
  });

  it("walks objects entry by entry without building them, with the same checks", () => {
    const walk = (r: JsonReader, depth: number): unknown[] => {
      const out: unknown[] = [];
      r.entries(depth, (key) => out.push(key, r.atObject() ? walk(r, depth + 1) : r.value(depth)));
      return out;
    };
    const text = '{"a":{"x":1,"x":[2]},"a":{},"b":"s"}';
    expect(readJsonBody(text, {}, (r) => walk(r, 1))).to.deep.equal(["a", ["x", 1, "x", [2]], "a", [], "b", "s"]);
    expect(() => readJsonBody('{"a":{"b":{}}}', { maxDepth: 2 }, (r) => walk(r, 1))).to.throw(JsonSyntaxError, "JSON nesting deeper than 2 levels at line 1, column 11");
    expect(() => readJsonBody('{"a" 1}', {}, (r) => walk(r, 1))).to.throw(JsonSyntaxError, "Expected ':' but found '1' at line 1, column 6");
    expect(() => readJsonBody('{"a":1} 2', {}, (r) => walk(r, 1))).to.throw(JsonSyntaxError, "Unexpected text after the JSON value at line 1, column 9");
  });

  it("agrees with JSON.parse on generated documents without duplicate keys or big integers", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const gen = (depth: number): unknown => {
      const r = rnd();
      if (depth > 4 || r < 0.3) {
        const s = rnd();
        if (s < 0.2) return Math.floor(rnd() * 2e9) - 1e9;
        if (s < 0.4) return (rnd() - 0.5) * 1e6;
        if (s < 0.6) return String.fromCharCode(...Array.from({ length: Math.floor(rnd() * 8) }, () => Math.floor(rnd() * 0x3000)));
        if (s < 0.8) return rnd() < 0.5;
        return null;
      }
      if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 5) }, () => gen(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rnd() * 5) }, (_, i) => [`k${i}_${Math.floor(rnd() * 100)}`, gen(depth + 1)]));
    };
    for (let i = 0; i < 500; i++) {
      const doc = gen(0);
      const text = JSON.stringify(doc, null, i % 2 ? 2 : undefined);
      expect(plain(parseJsonBody(text))).to.deep.equal(JSON.parse(text));
    }
  });

  it("rejects every random byte string that JSON.parse rejects, and accepts the ones it accepts", () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const alphabet = '{}[]":,0123456789.eE+-tfnrulsa \\\n';
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
      let expected = true;
      try {
        JSON.parse(text);
      } catch {
        expected = false;
      }
      let ours = true;
      try {
        parseJsonBody(text);
      } catch (e) {
        expect(e).to.be.instanceOf(JsonSyntaxError);
        ours = false;
      }
      expect(ours, text).to.equal(expected);
    }
  });
});
