// The attribute columns of one vertex or edge type, matched to the schema by name and type.
// Ordinals are positions in `columns` and are never reused: a dropped attribute leaves its
// ordinal empty (region null), so code bound to an ordinal stays valid while it exists.
import type { AttributeDef } from "../../schema/types.js";
import type { ColumnKind } from "../layout.js";
import type { Space } from "../memory/space.js";
import { defaultOf, sameType, type TupleTable } from "../values/coerce.js";
import { columnBytes, columnKindOf, isZeroCell, type Column } from "./columns.js";

/** A column as an image holds it (see image/read-image.ts). */
export interface RestoredColumn {
  manifest: { name: string; ordinal: number; kind: ColumnKind };
  def: { name: string } | undefined;
  data?: Uint8Array;
}

export class ColumnSet {
  columns: Column[] = [];
  readonly byName = new Map<string, Column>();

  /**
   * Match columns to `attributes`: same name and type keeps the column; anything else is a new
   * column (given to `create`, which allocates and fills it); columns left over are released.
   */
  match(space: Space, attributes: AttributeDef[], tuples: TupleTable, create: (column: Column) => void): void {
    this.byName.clear();
    for (const attr of attributes) {
      let column = this.columns.find((c) => c.region !== null && c.name === attr.name && sameType(c.def.type, attr.type));
      if (!column) {
        column = newColumn(attr.name, attr, this.columns.length, columnKindOf(attr.type), tuples);
        this.columns.push(column);
        create(column);
      }
      setDef(column, attr, tuples);
      this.byName.set(attr.name, column);
    }
    const kept = new Set(this.byName.values());
    for (const column of this.columns) {
      if (column.region && !kept.has(column)) {
        space.release(column.region);
        column.region = null;
      }
    }
  }

  /** Grow every live column from `from` to `to` elements (new cells zeroed). */
  resize(space: Space, from: number, to: number): void {
    for (const c of this.columns) if (c.region) c.region = space.resize(c.region, columnBytes(c.kind, to), columnBytes(c.kind, from));
  }

  /** Replace every live column by a zeroed one of the same size. */
  zero(space: Space): void {
    for (const c of this.columns) if (c.region) c.region = space.resize(c.region, c.region.bytes, 0);
  }

  release(space: Space): void {
    for (const c of this.columns) space.release(c.region);
  }

  /** Rebuild from an image's columns, with room for `capacity` elements each. */
  restore(space: Space, restored: RestoredColumn[], attributes: AttributeDef[], capacity: number, tuples: TupleTable): void {
    this.release(space);
    this.columns = restored.map(({ manifest, def, data }) => {
      const attr = attributes.find((a) => a.name === def?.name);
      const column = newColumn(manifest.name, attr ?? { name: manifest.name, type: { kind: "scalar", name: "INT" } }, manifest.ordinal, manifest.kind, tuples);
      if (data && attr) {
        column.region = space.allocate(columnBytes(manifest.kind, capacity));
        space.arena.u8.set(data, column.region.addr);
      }
      return column;
    });
    this.byName.clear();
    for (const c of this.columns) if (c.region) this.byName.set(c.name, c);
  }
}

function newColumn(name: string, def: AttributeDef, ordinal: number, kind: ColumnKind, tuples: TupleTable): Column {
  const column: Column = { name, def, ordinal, kind, region: null, defaultValue: 0, zeroDefault: true };
  setDef(column, def, tuples);
  return column;
}

function setDef(column: Column, def: AttributeDef, tuples: TupleTable): void {
  column.def = def;
  column.defaultValue = defaultOf(def, tuples);
  column.zeroDefault = isZeroCell(column.kind, column.defaultValue);
}
