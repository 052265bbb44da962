// The contract between a compiled query module and the host that runs it. The compiler's
// emitters and the runtime both import these definitions; nothing else couples them.
//
// A query module imports the graph's shared memory and the host functions below, and
// exports `run(ctl)`. `ctl` is the address of a run-control block in that memory: the host
// fills in the inputs, the module reads them, and leaves its outputs there when it returns.
// Everything a run allocates (accumulators, containers, strings, output) lives in arena
// chunks of the same memory that the host lends the run and takes back afterwards.
// Addresses are u32: compare them unsigned.

/** Import module names. */
export const IMPORT_MEMORY: [string, string] = ["graph", "memory"];
export const HOST_MODULE = "rt";

/** The module's entry point: `run(ctl: i32) -> i32` (a RunStatus). */
export const RUN_EXPORT = "run";

/** What `run` returns (also left in the control block's `status`). */
export const enum RunStatus {
  Ok = 0,
  /** A user exception (RAISE) nobody caught: code and message are in the control block. */
  UserException = 1,
  /** A SELECT's result went over Ctl.selectResultLimit: the run ends returning nothing. */
  ResultTooLarge = 2,
}

/** The size a SELECT result may reach (interface limits: 2 GB; above it nothing is returned). */
export const SELECT_RESULT_LIMIT_BYTES = 2 ** 31;

/**
 * Bytes a SELECT result is counted at per vertex: its id plus the state of each vertex
 * accumulator the query declares (what a vertex record of the result carries).
 */
export const RESULT_VERTEX_ID_BYTES = 8;

/**
 * Run-control block layout (byte offsets; every field is 4 bytes, little-endian, aligned).
 * The host writes the inputs before `run`; the module writes the outputs before returning.
 */
export const Ctl = {
  /** in, atomic: non-zero asks the module to stop (timeout, abort). Checked in every loop. */
  cancel: 0,
  /** in: address of the graph snapshot descriptor the run reads (store layout). */
  snapshot: 4,
  /** in: address and byte length of the encoded parameter block (see param-block.ts). */
  params: 8,
  paramsLength: 12,
  /** in: the free part of the first arena chunk lent to the run: [heapStart, heapEnd). */
  heapStart: 16,
  heapEnd: 48,
  /** in: RunFlags. */
  flags: 20,
  /** out: first output chunk (a chain; see OutputChunk), or 0 when nothing was printed. */
  output: 24,
  /** out: first chunk of the data-modification log, or 0. */
  dml: 28,
  /** out: user exception code and message (string address and byte length). */
  errorCode: 32,
  errorMessage: 36,
  errorMessageLength: 40,
  /** out: the status also returned by `run`. */
  status: 44,
  /** in: every internal vertex id of the snapshot is below this bound (vertex-indexed arrays). */
  vidBound: 52,
  /** Worker <-> main thread handshake for more arena chunks (atomic; 0 = pending). */
  chunkReply: 56,
  /** in: SELECT result limit in bytes (u32; 0 = SELECT_RESULT_LIMIT_BYTES). */
  selectResultLimit: 60,
  /** Size of the block in bytes. */
  size: 64,
} as const;

/** Bits of Ctl.flags. */
export const enum RunFlags {
  /** `__GQUERY__USING_ALL_ACTIVE_MODE=true`: seeds are all vertices; WHERE/HAVING ignored. */
  AllActive = 1,
  /** `__GQUERY__monitor=true`: the module reports SELECT start/end to the host. */
  Monitor = 2,
}

/**
 * Arena chunk header: [0] byte size of the whole chunk including the header; the usable
 * bytes start at offset 16. The host remembers which chunks it lent to which run.
 */
export const ArenaChunk = { size: 0, headerSize: 16 } as const;

/** The smallest chunk the host hands out, in bytes. */
export const MIN_CHUNK_BYTES = 1 << 20;

/**
 * Output chunk header (output and DML logs are chains of these inside arena memory):
 * [0] next chunk (0 ends), [4] bytes used after the header; data from offset 8.
 */
export const OutputChunk = { next: 0, used: 4, headerSize: 8 } as const;

/**
 * Tags of the typed output stream the module writes for PRINT. The host turns the stream
 * into JSON text (so 64-bit integers never pass through a JavaScript number). Operands
 * follow the tag byte, little-endian, unaligned.
 */
export const enum Out {
  /** Start of one PRINT statement's object. */
  PrintBegin = 1,
  /** A key: u32 index into the module's key table (manifest). */
  Key = 2,
  /** A key given as text: u32 byte length, UTF-8 bytes. */
  KeyText = 3,
  ObjectBegin = 4,
  ArrayBegin = 5,
  /** Closes the innermost PrintBegin/ObjectBegin/ArrayBegin/vertex record. */
  End = 6,
  Int = 7, // i64
  Uint = 8, // u64
  Float = 9, // f32
  Double = 10, // f64
  Bool = 11, // u8
  String = 12, // u32 length, bytes
  Datetime = 13, // i64 epoch seconds, printed "YYYY-MM-DD HH:MM:SS"
  /** A vertex printed as its id: u32 internal id. */
  VertexId = 14,
  /**
   * A vertex record: u32 internal id, u8 1 = with the schema attributes, 0 = projection
   * only; then Key/value pairs (accumulators or projected expressions) until End.
   */
  VertexRecord = 15,
  /** An edge record: u32 edge type index, u32 from vertex, u32 to vertex, u32 edge slot. */
  Edge = 16,
  /** DATETIME printed as epoch seconds (inside bags and map values, as the reference does). */
  DatetimeEpoch = 17,
  /** An "unknown" vertex (default VERTEX value). */
  NoVertex = 18,
  /** JSON text already formatted by the module's host calls: u32 length, bytes. */
  RawJson = 19,
  /** The next value item, as text (strings unquoted, vertices by id), is the key. */
  KeyOf = 20,
}

/**
 * Records of the data-modification log (Ctl.dml), applied by the host after the run
 * succeeds (a query's writes are invisible to itself and happen all together at the end).
 * u32 operands; "value" is one typed value item as in the output stream (Out tags);
 * binding numbers index the manifest's bindings.
 */
export const enum Dml {
  /** vid, attribute binding, value */
  SetVertexAttr = 1,
  /** vid, attribute binding, value (accumulated into the stored value) */
  AddVertexAttr = 2,
  /** edge type binding, from, to, eid, attribute binding, value */
  SetEdgeAttr = 3,
  AddEdgeAttr = 4,
  /** vertex type binding, id value, count, then count x (attribute binding, value) */
  InsertVertex = 5,
  /** edge type binding, from endpoint, to endpoint, count, count x (attribute binding, value);
   * endpoint = u8 0 + vid, or u8 1 + vertex type binding + id value */
  InsertEdge = 6,
  /** vid */
  DeleteVertex = 7,
  /** edge type ordinal (of the snapshot), from, to, eid */
  DeleteEdge = 8,
  /** FILE object opened (declared, or passed as a parameter): file number, path (u32 length, bytes) */
  FileOpen = 9,
  /** f.println(...): file number, count, count x value; written as one line of text */
  FileLine = 10,
}

/** Host functions a module may import from HOST_MODULE, with their wasm signatures. */
export const HOST_FUNCTIONS = {
  /** Lends the run a new arena chunk of at least `bytes` usable bytes; returns its address. */
  arenaChunk: { params: ["i32"], result: "i32" },
  /** Aborts the run with a built-in runtime error (RuntimeError code); never returns. */
  fail: { params: ["i32"], result: "none" },
  /** Monitor mode: SELECT statement `index` starts / ends (with its result size). */
  selectBegin: { params: ["i32"], result: "none" },
  selectEnd: { params: ["i32", "i32"], result: "none" },
  /** LOG: a message (address, length) for the server log. */
  log: { params: ["i32", "i32"], result: "none" },
  /** to_vertex_set skipped this many unknown ids of the vertex type named (address, length). */
  invalidVertexIds: { params: ["i32", "i32", "i32"], result: "none" },
  /**
   * SelectVertex: reads a delimited file (path, id column, type column or "", separator as
   * address/length pairs; header flag) and keeps its rows; returns the row count.
   */
  fileRows: { params: ["i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"], result: "i32" },
  /** Holds cell `part` (0 the id, 1 the type) of kept row `row` for strTake; returns its byte length. */
  fileCell: { params: ["i32", "i32"], result: "i32" },
  /** Current time, epoch seconds (now()). */
  nowSeconds: { params: [], result: "i64" },
  /** rand(): a double in [0, 1). */
  random: { params: [], result: "f64" },
  /** Math the instruction set lacks: op code (MathOp), two operands. */
  math: { params: ["i32", "f64", "f64"], result: "f64" },
  /**
   * A string-valued operation (StrOp) on up to three strings (address, length pairs) and two
   * numbers. The result is kept by the host; returns its byte length. Copy it with strTake.
   */
  strOp: { params: ["i32", "i32", "i32", "i32", "i32", "i32", "i32", "f64", "f64"], result: "i32" },
  /** A value as text (FormatKind, bits of the value); the text is taken with strTake. */
  format: { params: ["i32", "i64"], result: "i32" },
  /** Copies the last strOp/format result to `address`. */
  strTake: { params: ["i32"], result: "none" },
  /** A number-valued operation (NumOp) on two strings and a number. */
  numOp: { params: ["i32", "i32", "i32", "i32", "i32", "f64", "f64"], result: "i64" },
  /** DATETIME arithmetic and fields (DatetimeOp) on epoch seconds and an amount. */
  datetimeOp: { params: ["i32", "i64", "i64"], result: "i64" },
  /** An exception nobody catches, raised where the module cannot return (inside a SELECT):
   * code, message (address, length); ends the run. */
  raise: { params: ["i32", "i32", "i32"], result: "none" },
  /**
   * JSONOBJECT/JSONARRAY (JsonOp, plus JSON_ON_ARRAY for a getter on an array): the value's
   * text (address, length), a key (address, length) and an index. Text results are kept for
   * strTake (returns their byte length); DOUBLE comes back as its bits; others as integers.
   */
  json: { params: ["i32", "i32", "i32", "i32", "i32", "i64"], result: "i64" },
  /**
   * Parallel SELECT: how many threads a SELECT over `n` source vertices is split across
   * (this one and the helpers: its partial columns are made for that many), or 0: none.
   */
  parallelWant: { params: ["i32"], result: "i32" },
  /**
   * Runs exported range function `PARALLEL_RANGE_EXPORT + index` over source positions
   * [0, n) on this thread (slot 0) and the SELECT helper threads (helper k: slot k + 1),
   * passing each range the capture block; returns 1 once every range has run, 0 when the
   * helpers could not be had (nothing ran).
   */
  parallelRun: { params: ["i32", "i32", "i32"], result: "i32" },
} as const;

export type HostFunctionName = keyof typeof HOST_FUNCTIONS;

/**
 * Parallel SELECT: a query module exports `par_range_<k>(block, lo, hi, slot)` for each
 * SELECT it may split, running source positions [lo, hi) with the state captured in `block`
 * and writing the partial results of thread `slot`.
 */
export const PARALLEL_RANGE_EXPORT = "par_range_";

/**
 * The job board of the SELECT helper threads (one per graph memory, i32 cells): the thread
 * running a query publishes a SELECT's ranges here and helpers take chunks of them.
 */
export const Board = {
  /** 0 free, else 1 + the slot of the query worker holding the helpers. */
  owner: 0,
  /** Job number; helpers wait on it. */
  seq: 4,
  /** Job number of the last job closed to newcomers. */
  closed: 8,
  /** The job: the module's id, its range function, capture block, source count, chunk size. */
  module: 12,
  range: 16,
  block: 20,
  count: 24,
  chunk: 28,
  /** Next unclaimed source position (atomic add). */
  next: 32,
  /** Bumped (and notified) by each helper joining a job: wakes a thread waiting for one. */
  joined: 36,
  /** Non-zero once a thread failed: 1 + its RuntimeError code. */
  failed: 40,
  /** Per helper (up to MAX_SELECT_HELPERS): the job number it is inside, 0 outside any. */
  inJob: 64,
  size: 1024,
} as const;

export const MAX_SELECT_HELPERS = (Board.size - Board.inJob) / 4;

/** Operations of the `math` host function. */
export const enum MathOp {
  Pow = 0,
  Exp = 1,
  Log = 2,
  Log2 = 3,
  Log10 = 4,
  Sin = 5,
  Cos = 6,
  Tan = 7,
  Asin = 8,
  Acos = 9,
  Atan = 10,
  Atan2 = 11,
  Sinh = 12,
  Cosh = 13,
  Tanh = 14,
  Fmod = 15,
  /** round(x, digits) half away from zero on the decimal value. */
  Round = 16,
  /** trunc(x, digits). */
  Trunc = 17,
}

/** String results (strOp): strings a, b, c and numbers x, y. */
export const enum StrOp {
  Lower = 0,
  Upper = 1,
  /** trim: a = text, b = characters to strip (empty: whitespace), x = 0 both / 1 leading / 2 trailing. */
  Trim = 2,
  /** substr(a, x [, y]); y < 0 means "to the end". */
  Substr = 3,
  Left = 4,
  Right = 5,
  /** lpad(a, x, b) / rpad. */
  Lpad = 6,
  Rpad = 7,
  /** replace(a, b, c). */
  Replace = 8,
  /** insert(a, x, b) with y = characters replaced. */
  Insert = 9,
  Chr = 10,
  Space = 11,
  Soundex = 12,
  Translate = 13,
  Repeat = 14,
  Reverse = 15,
  Uuid = 16,
  /** datetime_format(x epoch seconds, a format). */
  DatetimeFormat = 17,
  /** a + b (strings too long for the arena fast path never need this; kept for completeness). */
  Concat = 18,
}

/** Number results (numOp) from strings a, b and numbers x, y. */
export const enum NumOp {
  Length = 0,
  /** instr(a, b, x = start, y = occurrence): 0-based index or -1. */
  Instr = 1,
  FindInSet = 2,
  Ascii = 3,
  Difference = 4,
  /** str_to_int(a). */
  StrToInt = 5,
  /** to_datetime(a): epoch seconds; a malformed text is a runtime error. */
  ToDatetime = 6,
  /** a LIKE b, with x = escape character code (0: none). */
  Like = 7,
}

/** Kinds of the `format` host function (to_string and output of scalar values). */
export const enum FormatKind {
  Int = 0,
  Uint = 1,
  /** The i64 holds the f32 bits in its low 32 bits. */
  Float = 2,
  /** The i64 holds the f64 bits. */
  Double = 3,
  Bool = 4,
  Datetime = 5,
}

/** Operations of the `json` host function. */
export const enum JsonOp {
  /** parse_json_object(text) / parse_json_array(text): the canonical text. */
  ParseObject = 0,
  ParseArray = 1,
  GetInt = 2,
  GetDouble = 3,
  GetBool = 4,
  GetString = 5,
  GetObject = 6,
  GetArray = 7,
  ContainsKey = 8,
  Size = 9,
}

/** Added to a JsonOp getter when the value is a JSONARRAY (members by index). */
export const JSON_ON_ARRAY = 16;

/** Operations of `datetimeOp`. */
export const enum DatetimeOp {
  Year = 0,
  Month = 1,
  Day = 2,
  Hour = 3,
  Minute = 4,
  Second = 5,
  AddMonths = 6,
  AddSeconds = 7,
}

/** Built-in runtime errors a module raises through `fail`; the host owns the messages. */
export const enum RuntimeError {
  DivideByZero = 1,
  /** Should not happen: an internal invariant of the generated code was broken. */
  Internal = 2,
  OutOfMemory = 3,
  NoSuchVertex = 4,
  BadRangeStep = 5,
  IndexOutOfRange = 6,
  OutputTooLarge = 7,
  BadDatetime = 8,
  BadInteger = 9,
  /** println to a FILE parameter the caller did not give. */
  NoFile = 10,
  /** parse_json_object/parse_json_array of a text that is not a JSON object/array. */
  BadJson = 11,
  /** A JSON getter on a missing key or index, or on a member of another type. */
  JsonAccess = 12,
  /** SelectVertex: the file cannot be read. */
  FileRead = 13,
  /** SelectVertex: a row lacks the column, or a `$"name"` column is not in the header. */
  FileColumn = 14,
  /** to_vertex / to_vertex_set: the type name given at run time names no vertex type of the graph. */
  NoSuchVertexType = 15,
}

export const RUNTIME_ERROR_MESSAGES: Record<number, string> = {
  1: "Runtime Error: divider is zero.",
  2: "Runtime Error: internal error in the compiled query.",
  3: "Runtime Error: the query ran out of memory.",
  4: "Runtime Error: the vertex does not exist.",
  5: "Runtime Error: the step of RANGE must not be zero.",
  6: "Runtime Error: index out of range.",
  7: "Runtime Error: the query output exceeds the size limit.",
  8: "Runtime Error: the text is not a valid DATETIME.",
  9: "Runtime Error: the text is not a valid integer.",
  10: "Runtime Error: no file path was given for the FILE parameter.",
  11: "Runtime Error: the text is not a valid JSON object or array of the expected kind.",
  12: "Runtime Error: the JSON value has no such key or index, or the member there is of another type.",
  13: "Runtime Error: the file given to SelectVertex cannot be read.",
  14: "Runtime Error: a row of the file given to SelectVertex has no such column.",
  15: "Runtime Error: the vertex type does not exist.",
};
