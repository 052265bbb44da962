// Job names share one namespace per graph (loading and schema-change jobs alike); global
// schema-change jobs have their own.
import type { StatementContext } from "./context.js";

export function jobNameTaken(ctx: StatementContext, graph: string | undefined, name: string): boolean {
  return ctx.services.catalog.jobNames(graph).includes(name);
}
