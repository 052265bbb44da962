// What every table needs to reach: the versioned space, the heap, the global block tables and
// the schema's tuple definitions. One context per store.
import type { Arena } from "../memory/arena.js";
import type { Heap } from "../memory/heap.js";
import type { Space } from "../memory/space.js";
import { BlobWriter } from "../values/blob.js";
import type { TupleTable } from "../values/coerce.js";
import type { CellContext } from "./columns.js";
import type { VertexBlocks } from "./vertex-blocks.js";

export class StoreContext implements CellContext {
  readonly blob = new BlobWriter();

  constructor(
    readonly space: Space,
    readonly heap: Heap,
    readonly blocks: VertexBlocks,
    public tuples: TupleTable,
  ) {}

  get arena(): Arena {
    return this.space.arena;
  }
}
