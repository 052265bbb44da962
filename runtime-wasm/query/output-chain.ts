// Reads a chain of output chunks (OutputChunk in abi.ts) out of the graph memory into one
// plain byte array, e.g. the data-modification log a run leaves for the host to apply.
import { OutputChunk } from "./abi.js";

export function readOutputChain(memory: WebAssembly.Memory, first: number): Uint8Array {
  const view = new DataView(memory.buffer);
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let chunk = first; chunk !== 0; chunk = view.getUint32(chunk + OutputChunk.next, true)) {
    const used = view.getUint32(chunk + OutputChunk.used, true);
    parts.push(new Uint8Array(memory.buffer, chunk + OutputChunk.headerSize, used));
    total += used;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}
