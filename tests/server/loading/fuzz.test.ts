// Generated input against an independent reference: random lines (separators, empty and
// non-numeric fields, quotes, binary bytes, CR, oversize lines) loaded through runLoad must
// give exactly the statistics and objects a naive line-by-line model computes, and never throw.
import { expect } from "chai";
import { runLoad } from "../../../server/loading/run.js";
import { mulberry32 } from "../../../tools/bench/rmat.js";
import { RecordingSink, col, job, skip } from "./fixtures.js";

const ALPHABET = ["a", "b", "7", "0", "-", "+", ".", " ", '"', "é", "\u0000", "\u00ff", "\r", "x9", "12", "99999999999999999999"];

function randomLine(random: () => number, sep: string): string {
  const fields = 1 + Math.floor(random() * 4);
  const parts: string[] = [];
  for (let f = 0; f < fields; f++) {
    let s = "";
    const len = Math.floor(random() * 4);
    for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(random() * ALPHABET.length)];
    parts.push(s);
  }
  return parts.join(sep);
}

/** The model: split on the separator; 2 tokens needed; id non-empty; age empty (skipped) or [-+]?digits. */
function reference(lines: string[], sep: string, maxLineLength: number) {
  const out = { validLine: 0, notEnoughToken: 0, oversizeToken: 0, valid: [] as [string, bigint | undefined][], noId: 0, badAge: 0 };
  for (const line of lines) {
    if (line.length === 0) continue;
    if (line.length > maxLineLength) {
      out.oversizeToken++;
      continue;
    }
    const tokens = line.split(sep);
    if (tokens.length < 2) {
      out.notEnoughToken++;
      continue;
    }
    out.validLine++;
    const [id, age] = tokens as [string, string];
    if (id === "") {
      out.noId++;
      continue;
    }
    if (age === "") {
      out.valid.push([id, undefined]);
    } else if (/^\s*[+-]?\d+\s*$/.test(age)) {
      out.valid.push([id, BigInt.asIntN(64, BigInt(age.trim()))]);
    } else {
      out.badAge++;
    }
  }
  return out;
}

describe("runLoad: generated (fuzz) input matches a reference model", () => {
  for (const [sep, eol] of [[",", "\n"], ["|#", "\r\n"], ["\t", "$"]] as const) {
    it(`separator ${JSON.stringify(sep)}, eol ${JSON.stringify(eol)}`, async () => {
      const random = mulberry32(sep.length * 7 + eol.length);
      for (let round = 0; round < 20; round++) {
        const lines = Array.from({ length: 200 }, () => randomLine(random, sep));
        if (round % 5 === 0) lines.push("z".repeat(300));
        const data = lines.join(eol) + (round % 2 ? eol : "");
        const sink = new RecordingSink();
        const plan = job([{ kind: "vertex", type: "Person", values: [col(0), skip, col(1), skip, skip, skip, skip] }], { separator: sep, eol });
        const r = await runLoad(plan, new Map([["f", { kind: "body", data }]]), sink, { maxLineLength: 250, chunkBytes: 1 + Math.floor(random() * 97) });
        const want = reference(lines, sep, 250);
        const s = r.sources[0]!.statistics;
        expect([s.validLine, s.notEnoughToken, s.oversizeToken], `round ${round}`).to.deep.equal([want.validLine, want.notEnoughToken, want.oversizeToken]);
        const v = s.vertex[0]!;
        expect([v.validObject, v.noIdFound, v.invalidAttribute]).to.deep.equal([want.valid.length, want.noId, want.badAge]);
        expect(sink.vertices.map((x) => [x.id, x.attributes[0]?.value])).to.deep.equal(want.valid);
      }
    });
  }

  it("binary garbage and truncated JSON lines are counted, never thrown", async () => {
    const random = mulberry32(99);
    const bytes = new Uint8Array(200_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    const sink = new RecordingSink();
    const csv = await runLoad(job([{ kind: "vertex", type: "City", values: [col(0), col(1)] }]), new Map([["f", { kind: "body", data: bytes }]]), sink, { maxLineLength: 1000 });
    const s = csv.sources[0]!.statistics;
    expect(s.validLine + s.notEnoughToken + s.oversizeToken).to.equal(csv.sources[0]!.lines);
    const v = s.vertex[0]!;
    expect(v.validObject + v.noIdFound + v.invalidPrimaryId).to.equal(s.validLine);
    expect(sink.vertices.every((x) => typeof x.id === "number" && Number.isInteger(x.id) && x.id >= 0)).to.equal(true);

    const jsonSink = new RecordingSink();
    const full = '{"id":"a","name":"Ann"}';
    const lines = Array.from({ length: full.length }, (_, i) => full.slice(0, i + 1));
    const json = await runLoad(job([{ kind: "vertex", type: "Person", values: [{ kind: "named_column", name: "id" }, { kind: "named_column", name: "name" }, skip, skip, skip, skip, skip] }], { jsonFile: true }), new Map([["f", { kind: "body", data: lines.join("\n") }]]), jsonSink);
    expect(json.sources[0]!.statistics.invalidJson).to.equal(full.length - 1);
    expect(jsonSink.vertices).to.have.length(1);
  });
});
