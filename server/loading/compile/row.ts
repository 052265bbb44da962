// What a compiled loading statement sees of one input line: its tokens (delimited fields,
// JSON key-path values, or temp-table columns) and the name of the file it came from.

export interface Row {
  /** undefined = absent (a JSON key that is not there): the attribute keeps its value. */
  tokens: (string | undefined)[];
  fileName: string;
}

/** Maps a column reference to its token index for one source layout. */
export interface ColumnResolver {
  /** $N */
  position(index: number): number;
  /** $"name" */
  named(name: string): number;
  /** $"a":"b" */
  path(path: string[]): number;
}

export type TokenGetter = (row: Row) => string | undefined;
