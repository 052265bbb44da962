// The bind stage: names resolved against the catalog, types inferred and checked, DDL and
// loading jobs validated. Entry points:
//   bind(script, catalog, log)        a whole GSQL text (gsqlc check)
//   bindQuery(ast, catalog, log)      one CREATE QUERY (the server's catalog)
//   applyDdl / applySchemaChangeJob   DDL on a DatabaseSchema (server catalog, gsqlc --schema)
//   bindLoadingJob(ast, schema, log)  one CREATE LOADING JOB
export { bind, type BoundScript, type BindScriptOptions } from "./bind-script.js";
export { bindQuery, type BindQueryOptions } from "./bind-query.js";
export { MemoryCatalog, type BindCatalog, type QuerySignature, type QueryParamSignature } from "./catalog.js";
export type * from "./bound.js";
export * from "./types.js";
export { lookupFunction, lookupMethod, type BuiltinFunction, type BuiltinMethod } from "./builtins.js";
export { applyDdl, type DdlEffect, type DdlResult } from "./ddl/apply.js";
export { applySchemaChangeJob } from "./ddl/schema-change.js";
export { ddlFromAst, schemaChangeJobFromAst } from "./ddl/from-ast.js";
export type * from "./ddl/commands.js";
export { bindLoadingJob } from "./loading/bind-loading.js";
export type * from "./loading/bound-loading.js";
export { dumpBound } from "./dump.js";
