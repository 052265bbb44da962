// The reader stage of the loader: a source (file path or request body) becomes lines, and
// each line becomes tokens (delimited fields or JSON key paths). One entry per concern.
export { readLines, type LineCallbacks, type LineOptions, type LineSource } from "./lines.js";
export { fieldSplitter, type FieldSplitter } from "./fields.js";
export { extractJsonTokens, jsonToken } from "./json-line.js";
