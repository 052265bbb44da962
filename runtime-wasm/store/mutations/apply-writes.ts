// Attribute writes of an item whose vertex or edge exists (stored before the batch or created
// by an earlier item of it): each write folds its value into the stored one with its operator;
// ignore_if_exists leaves the stored value.
import type { AttrValue } from "../../schema/types.js";
import type { EdgeTable } from "../tables/edge-table.js";
import { applyOperator } from "../values/operators.js";
import type { PlannedWrite } from "./plan-writes.js";

export function updateEdge(table: EdgeTable, eid: number, writes: PlannedWrite[]): void {
  for (let k = 0; k < writes.length; k++) {
    const w = writes[k];
    if (w.op === "~") continue;
    table.writeAttribute(w.column, eid, combine(w, table.readAttribute(w.column, eid)));
  }
  table.dirty = true;
}

/** The value a write leaves in a cell holding `stored`. */
export function combine(w: PlannedWrite, stored: AttrValue): AttrValue {
  return w.op === "=" ? w.value : applyOperator(w.op, w.column.def.type, stored, w.value);
}
