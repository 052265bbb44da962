// The memory-layout ABI as a query module sees it: a WebAssembly module, written against the
// offsets of layout.ts only, imports the store's memory and reads a pinned version (degrees,
// edge lists, eids, attribute columns, the alive bitmap, the id hash) and must agree with the
// store's API — also for a version pinned before many more writes.
import { expect } from "chai";
import binaryen from "binaryen";
import { ADJ, COL, createStore, ET, ID_HASH_ENTRY_WORDS, SB, SUPERBLOCK_MAGIC, VERTEX_BLOCK_MASK, VERTEX_BLOCK_SHIFT, VH, VT, type GraphStore, type Snapshot } from "../../../runtime-wasm/store/index.js";
import { attr, edge, INT, schemaOf, vertex } from "./fixtures.js";

const WAT = `(module
  (import "env" "memory" (memory 1 65536 shared))
  (func $vertexHeader (param $h i32) (param $vt i32) (result i32)
    (i32.load (i32.add (i32.load offset=${VH.VERTEX_TYPE_TABLE} (local.get $h)) (i32.shl (local.get $vt) (i32.const 2)))))
  (func $adjacency (param $h i32) (param $e i32) (param $table i32) (param $vt i32) (result i32)
    (local $et i32)
    (local.set $et (i32.load (i32.add (i32.load offset=${VH.EDGE_TYPE_TABLE} (local.get $h)) (i32.shl (local.get $e) (i32.const 2)))))
    (i32.load (i32.add (i32.load (i32.add (local.get $et) (local.get $table))) (i32.shl (local.get $vt) (i32.const 2)))))
  (func $live (param $vh i32) (param $local i32) (result i32)
    (i32.and
      (i32.load8_u (i32.add (i32.load offset=${VT.ALIVE} (local.get $vh)) (i32.shr_u (local.get $local) (i32.const 3))))
      (i32.shl (i32.const 1) (i32.and (local.get $local) (i32.const 7)))))
  (func (export "degreeSum") (param $h i32) (param $e i32) (param $table i32) (param $vt i32) (result i32)
    (local $adj i32) (local $i i32) (local $n i32) (local $sum i32)
    (local.set $adj (call $adjacency (local.get $h) (local.get $e) (local.get $table) (local.get $vt)))
    (if (i32.eqz (local.get $adj)) (then (return (i32.const 0))))
    (local.set $n (i32.load offset=${ADJ.SLOT_COUNT} (local.get $adj)))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $sum (i32.add (local.get $sum)
        (i32.load offset=4 (i32.add (i32.load offset=${ADJ.HEADS} (local.get $adj)) (i32.shl (local.get $i) (i32.const 3))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
    (local.get $sum))
  ;; Sum over all entries of (target vid * 3 + eid), eid counting 0 for 4-byte entries.
  (func (export "entryChecksum") (param $h i32) (param $e i32) (param $table i32) (param $vt i32) (result i64)
    (local $adj i32) (local $i i32) (local $n i32) (local $j i32) (local $deg i32) (local $p i32) (local $size i32) (local $sum i64)
    (local.set $adj (call $adjacency (local.get $h) (local.get $e) (local.get $table) (local.get $vt)))
    (if (i32.eqz (local.get $adj)) (then (return (i64.const 0))))
    (local.set $n (i32.load offset=${ADJ.SLOT_COUNT} (local.get $adj)))
    (local.set $size (i32.load offset=${ADJ.ENTRY_BYTES} (local.get $adj)))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $deg (i32.load offset=4 (i32.add (i32.load offset=${ADJ.HEADS} (local.get $adj)) (i32.shl (local.get $i) (i32.const 3)))))
      (local.set $p (i32.load (i32.add (i32.load offset=${ADJ.HEADS} (local.get $adj)) (i32.shl (local.get $i) (i32.const 3)))))
      (local.set $j (i32.const 0))
      (block $end (loop $entry
        (br_if $end (i32.ge_u (local.get $j) (local.get $deg)))
        (local.set $sum (i64.add (local.get $sum) (i64.mul (i64.extend_i32_u (i32.load (local.get $p))) (i64.const 3))))
        (if (i32.eq (local.get $size) (i32.const 8))
          (then (local.set $sum (i64.add (local.get $sum) (i64.extend_i32_u (i32.load offset=4 (local.get $p)))))))
        (local.set $p (i32.add (local.get $p) (local.get $size)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $entry)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
    (local.get $sum))
  (func (export "liveCount") (param $h i32) (param $vt i32) (result i32)
    (local $vh i32) (local $i i32) (local $n i32) (local $count i32)
    (local.set $vh (call $vertexHeader (local.get $h) (local.get $vt)))
    (local.set $n (i32.load offset=${VT.SLOT_COUNT} (local.get $vh)))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (call $live (local.get $vh) (local.get $i)) (then (local.set $count (i32.add (local.get $count) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
    (local.get $count))
  (func (export "intColumnSum") (param $h i32) (param $vt i32) (param $attr i32) (result i64)
    (local $vh i32) (local $col i32) (local $i i32) (local $n i32) (local $sum i64)
    (local.set $vh (call $vertexHeader (local.get $h) (local.get $vt)))
    (local.set $col (i32.load offset=${COL.ADDRESS} (i32.add (i32.load offset=${VT.ATTRIBUTE_TABLE} (local.get $vh)) (i32.mul (local.get $attr) (i32.const ${COL.BYTES})))))
    (local.set $n (i32.load offset=${VT.SLOT_COUNT} (local.get $vh)))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (call $live (local.get $vh) (local.get $i))
        (then (local.set $sum (i64.add (local.get $sum) (i64.load (i32.add (local.get $col) (i32.shl (local.get $i) (i32.const 3))))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
    (local.get $sum))
  ;; The id hash probe of layout.ts (hashIdHalves, linear probing over 3-word entries) for an INT id; returns the vid or -1.
  (func (export "lookupInt") (param $h i32) (param $vt i32) (param $low i32) (param $high i32) (result i32)
    (local $vh i32) (local $x i32) (local $mask i32) (local $e i32) (local $at i32)
    (local.set $vh (call $vertexHeader (local.get $h) (local.get $vt)))
    (local.set $mask (i32.sub (i32.load offset=${VT.ID_HASH_CAPACITY} (local.get $vh)) (i32.const 1)))
    (local.set $x (i32.mul (i32.xor (local.get $low) (i32.mul (local.get $high) (i32.const 0x85ebca6b))) (i32.const 0x9e3779b1)))
    (local.set $x (i32.xor (local.get $x) (i32.shr_u (local.get $x) (i32.const 15))))
    (local.set $x (i32.mul (local.get $x) (i32.const 0x2c1b3c6d)))
    (local.set $x (i32.xor (local.get $x) (i32.shr_u (local.get $x) (i32.const 12))))
    (local.set $x (i32.and (local.get $x) (local.get $mask)))
    (loop $probe
      (local.set $at (i32.add (i32.load offset=${VT.ID_HASH} (local.get $vh)) (i32.mul (local.get $x) (i32.const ${ID_HASH_ENTRY_WORDS * 4}))))
      (local.set $e (i32.load (local.get $at)))
      (if (i32.eq (local.get $e) (i32.const -1)) (then (return (i32.const -1))))
      (if (i32.and (i32.ne (local.get $e) (i32.const -2))
            (i32.and (i32.eq (i32.load offset=4 (local.get $at)) (local.get $low))
                     (i32.eq (i32.load offset=8 (local.get $at)) (local.get $high))))
        (then (return (i32.or
          (i32.shl (i32.load (i32.add (i32.load offset=${VT.BLOCKS} (local.get $vh)) (i32.shl (i32.shr_u (local.get $e) (i32.const ${VERTEX_BLOCK_SHIFT})) (i32.const 2)))) (i32.const ${VERTEX_BLOCK_SHIFT}))
          (i32.and (local.get $e) (i32.const ${VERTEX_BLOCK_MASK}))))))
      (local.set $x (i32.and (i32.add (local.get $x) (i32.const 1)) (local.get $mask)))
      (br $probe))
    (i32.const -1))
)`;

interface Reader {
  degreeSum(h: number, e: number, table: number, vt: number): number;
  entryChecksum(h: number, e: number, table: number, vt: number): bigint;
  liveCount(h: number, vt: number): number;
  intColumnSum(h: number, vt: number, attr: number): bigint;
  lookupInt(h: number, vt: number, low: number, high: number): number;
}

async function instantiate(store: GraphStore): Promise<Reader> {
  const module = binaryen.parseText(WAT);
  module.setFeatures(binaryen.Features.Atomics | binaryen.Features.MutableGlobals);
  expect(module.validate()).to.equal(1);
  const bytes = module.emitBinary();
  module.dispose();
  const wasm = (globalThis as unknown as { WebAssembly: { instantiate(b: Uint8Array, i: object): Promise<{ instance: { exports: unknown } }> } }).WebAssembly;
  const { instance } = await wasm.instantiate(bytes, { env: { memory: store.memory } });
  return instance.exports as Reader;
}

function build(): GraphStore {
  const store = createStore(
    schemaOf(
      [vertex("P", "INT", [attr("score", INT)]), vertex("Q", "INT", [])],
      [edge("Link", true, [["P", "P"], ["P", "Q"]], [], { reverseEdge: "Back" }), edge("Back", true, [["P", "P"], ["Q", "P"]], [], { reverseOf: "Link" }), edge("Tie", false, [["P", "P"]], [attr("w", INT)])],
    ),
  );
  const vertices = [];
  for (let i = -600; i < 1500; i++) vertices.push({ type: "P", id: i * 7919, attributes: [{ name: "score", value: i }] });
  const edges = [];
  for (let i = 0; i < 6000; i++) {
    const a = { type: "P", id: (((i * 37) % 2100) - 600) * 7919 };
    const b = { type: i % 5 === 0 ? "Q" : "P", id: i % 5 === 0 ? i % 40 : (((i * 101) % 2100) - 600) * 7919 };
    edges.push({ type: "Link", from: a, to: b });
    if (b.type === "P" && i % 3 === 0) edges.push({ type: "Tie", from: a, to: b, attributes: [{ name: "w", value: i }] });
  }
  store.upsert({ vertices, edges });
  store.deleteVertices("P", [0, 7919 * 5, 7919 * -3]);
  return store;
}

/** What the wasm reader must find, computed through the snapshot API. */
function expected(s: Snapshot) {
  const ordinal = (key: string) => s.layout.vertexTypes.find((t) => t.key === key)!.ordinal;
  let scoreSum = 0n;
  for (const v of s.vertices("P")) scoreSum += s.attribute(v, "score") as bigint;
  const checksum = (type: string, from: string) => {
    let sum = 0n;
    for (const v of s.vertices(from)) for (const e of s.edges(v, { type })) sum += BigInt(e.to) * 3n + BigInt(Math.max(e.eid, 0));
    return sum;
  };
  const degrees = (type: string, from: string) => [...s.vertices(from)].reduce((n, v) => n + s.degree(v, type), 0);
  return {
    p: ordinal("P"),
    q: ordinal("Q"),
    live: s.vertexCount("P"),
    scoreSum,
    linkOut: degrees("Link", "P"),
    backFromQ: degrees("Back", "Q"),
    tie: degrees("Tie", "P"),
    linkChecksum: checksum("Link", "P"),
    backChecksum: checksum("Back", "Q"),
    tieChecksum: checksum("Tie", "P"),
  };
}

function measured(r: Reader, s: Snapshot, e: ReturnType<typeof expected>) {
  const h = s.headerAddress;
  const edgeOrdinal = (key: string) => s.layout.edgeTypes.find((t) => t.key === key)!.ordinal;
  return {
    p: e.p,
    q: e.q,
    live: r.liveCount(h, e.p),
    scoreSum: r.intColumnSum(h, e.p, s.layout.vertexTypes.find((t) => t.key === "P")!.attributes.find((a) => a.name === "score")!.ordinal),
    linkOut: r.degreeSum(h, edgeOrdinal("Link"), ET.OUT_TABLE, e.p),
    backFromQ: r.degreeSum(h, edgeOrdinal("Back"), ET.OUT_TABLE, e.q),
    tie: r.degreeSum(h, edgeOrdinal("Tie"), ET.OUT_TABLE, e.p),
    linkChecksum: r.entryChecksum(h, edgeOrdinal("Link"), ET.OUT_TABLE, e.p),
    backChecksum: r.entryChecksum(h, edgeOrdinal("Link"), ET.IN_TABLE, e.q),
    tieChecksum: r.entryChecksum(h, edgeOrdinal("Tie"), ET.IN_TABLE, e.p),
  };
}

describe("store: memory layout as a WebAssembly reader sees it", () => {
  it("a module written against layout.ts reads the pinned version exactly as the API does", async () => {
    const store = build();
    const reader = await instantiate(store);
    const s = store.snapshot();
    const u32 = new Uint32Array(store.memory.buffer);
    expect(u32[SB.MAGIC / 4]).to.equal(SUPERBLOCK_MAGIC);
    expect(u32[SB.CURRENT_HEADER / 4]).to.equal(s.headerAddress);
    const e = expected(s);
    expect(e.linkOut).to.be.greaterThan(2000);
    expect(measured(reader, s, e)).to.deep.equal(e);
    for (const id of [7919 * 1499, -600 * 7919, 7919 * 5, 12345, 7919 * 17]) {
      const vid = reader.lookupInt(s.headerAddress, e.p, id | 0, Math.floor(id / 2 ** 32) | 0);
      expect(vid === -1 ? undefined : vid >>> 0, `id ${id}`).to.equal(s.lookup("P", id));
    }

    // The same header keeps describing the same data while the store moves on.
    const edges = [];
    for (let i = 0; i < 20000; i++) edges.push({ type: "Link", from: { type: "P", id: (i % 2000) * 7919 }, to: { type: "Q", id: 1000 + i } });
    store.upsert({ edges, vertices: [{ type: "P", id: 7919, attributes: [{ name: "score", value: 100, op: "+" }] }] });
    store.deleteVertices("P", [7919 * 2, 7919 * 3]);
    store.compact();
    expect(measured(reader, s, e)).to.deep.equal(e);
    s.release();
    store.read((now) => expect(measured(reader, now, expected(now))).to.deep.equal(expected(now)));
  });
});
