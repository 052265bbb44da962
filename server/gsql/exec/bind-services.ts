// The binder behind QueryServices.bind: one query definition bound against the catalog
// (compiler/bind's bindQuery), with its diagnostics, callable signature and callees.
import { bindQuery } from "../../../compiler/bind/index.js";
import type { BindCatalog } from "../../../compiler/bind/catalog.js";
import type { AstQueryDefinition } from "../../../compiler/ast/index.js";
import { DiagnosticLog } from "../../../compiler/diagnostics/index.js";
import type { BoundQueryInfo } from "./query-services.js";

export function bindDefinitionWithBinder(definition: AstQueryDefinition, catalog: BindCatalog, graph: string, syntax?: "v1" | "v2"): BoundQueryInfo {
  const log = new DiagnosticLog();
  const ast = definition as Parameters<typeof bindQuery>[0];
  const bound = bindQuery(ast, catalog, log, { workingGraph: graph, defaultSyntax: syntax });
  const info: BoundQueryInfo = {
    diagnostics: log.diagnostics,
    callees: [...new Set((bound?.calls ?? []).filter((c) => c.graph === graph && c.name !== bound?.name).map((c) => c.name))],
  };
  if (bound) {
    info.signature = bound.signature;
    info.bound = bound;
  }
  return info;
}
