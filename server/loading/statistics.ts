// Load statistics in the shape clients read from POST /ddl (compat-notes "Loading"):
// file-level line counts, then per destination type object counts. Two-level accounting
// (gsql-ddl-loading-shell §8.3): a line that is short, rejected, invalid JSON or oversize
// is skipped for every LOAD; an object error drops only that object.

export interface ObjectStatistics {
  typeName: string;
  validObject: number;
  noIdFound: number;
  invalidAttribute: number;
  invalidVertexType: number;
  invalidPrimaryId: number;
  invalidSecondaryId: number;
  incorrectFixedBinaryLength: number;
}

export type ObjectError = Exclude<keyof ObjectStatistics, "typeName" | "validObject">;

export interface LoadStatistics {
  validLine: number;
  rejectLine: number;
  failedConditionLine: number;
  notEnoughToken: number;
  invalidJson: number;
  oversizeToken: number;
  vertex: ObjectStatistics[];
  edge: ObjectStatistics[];
  deleteVertex: ObjectStatistics[];
  deleteEdge: ObjectStatistics[];
}

export type ObjectGroup = "vertex" | "edge" | "deleteVertex" | "deleteEdge";

export function emptyStatistics(): LoadStatistics {
  return { validLine: 0, rejectLine: 0, failedConditionLine: 0, notEnoughToken: 0, invalidJson: 0, oversizeToken: 0, vertex: [], edge: [], deleteVertex: [], deleteEdge: [] };
}

export function emptyObjectStatistics(typeName: string): ObjectStatistics {
  return {
    typeName,
    validObject: 0,
    noIdFound: 0,
    invalidAttribute: 0,
    invalidVertexType: 0,
    invalidPrimaryId: 0,
    invalidSecondaryId: 0,
    incorrectFixedBinaryLength: 0,
  };
}

/** The per-type entry of a group, created (with zero counts) on first use, in first-use order. */
export function objectEntry(stats: LoadStatistics, group: ObjectGroup, typeName: string): ObjectStatistics {
  const list = stats[group];
  let entry = list.find((e) => e.typeName === typeName);
  if (!entry) {
    entry = emptyObjectStatistics(typeName);
    list.push(entry);
  }
  return entry;
}

/** Lines skipped for every LOAD (the file-level errors). */
export function lineErrors(s: LoadStatistics): number {
  return s.rejectLine + s.notEnoughToken + s.invalidJson + s.oversizeToken;
}

/** Objects dropped, over every destination type. */
export function objectErrors(s: LoadStatistics): number {
  let n = 0;
  for (const group of [s.vertex, s.edge, s.deleteVertex, s.deleteEdge]) {
    for (const e of group) {
      n += e.noIdFound + e.invalidAttribute + e.invalidVertexType + e.invalidPrimaryId + e.invalidSecondaryId + e.incorrectFixedBinaryLength;
    }
  }
  return n;
}

export function validObjects(s: LoadStatistics): number {
  let n = 0;
  for (const group of [s.vertex, s.edge, s.deleteVertex, s.deleteEdge]) for (const e of group) n += e.validObject;
  return n;
}

/** Adds b's counts into a. */
export function mergeStatistics(a: LoadStatistics, b: LoadStatistics): void {
  a.validLine += b.validLine;
  a.rejectLine += b.rejectLine;
  a.failedConditionLine += b.failedConditionLine;
  a.notEnoughToken += b.notEnoughToken;
  a.invalidJson += b.invalidJson;
  a.oversizeToken += b.oversizeToken;
  for (const group of ["vertex", "edge", "deleteVertex", "deleteEdge"] as const) {
    for (const e of b[group]) {
      const into = objectEntry(a, group, e.typeName);
      for (const key of Object.keys(e) as (keyof ObjectStatistics)[]) {
        if (key !== "typeName") into[key] += e[key];
      }
    }
  }
}
