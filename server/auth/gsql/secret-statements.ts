// Secrets at the shell (gsql-ddl-loading-shell §11): CREATE SECRET [alias] prints the secret
// once (`The secret: <s> ...`; only its digest is kept), SHOW SECRET masks it, DROP SECRET
// takes the secret or its alias and drops the tokens made from it. A secret belongs to one
// user and one graph: the working graph, on which the user must hold a role.
import type { AstCreateSecret, AstDrop, AstShow } from "../../../compiler/ast/index.js";
import { workingGraph, type Outcome, type StatementContext } from "../../gsql/exec/context.js";
import type { AuthService } from "../auth-service.js";
import type { AuthSecret } from "../auth-state.js";
import { credentialDigest, generatedAlias, looksLikeCredential, maskCredential, randomCredential } from "../credentials.js";
import { decidePrivileges, decideReach } from "../decide.js";
import { permitted, principalOf, fail } from "./statement-kit.js";

export function runCreateSecret(auth: AuthService, s: AstCreateSecret, ctx: StatementContext): Outcome {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const principal = principalOf(ctx);
  if (!permitted(ctx, decideReach(auth.store, principal, graph))) return "error";
  const mine = auth.store.secretsOf(principal.user);
  let alias = s.alias?.name;
  if (alias !== undefined) {
    if (alias.length > 256) return fail(ctx, "A secret alias has at most 256 characters.");
    if (mine.some((x) => x.alias === alias)) return fail(ctx, `The secret with alias ${alias} already exists.`);
  } else {
    do alias = generatedAlias();
    while (mine.some((x) => x.alias === alias));
  }
  const secret = randomCredential();
  const record: AuthSecret = {
    digest: credentialDigest(secret),
    user: principal.user,
    graph,
    alias,
    mask: maskCredential(secret),
    createdAt: auth.now(),
  };
  auth.submit([{ kind: "put-secret", secret: record }]);
  ctx.out.line(`The secret: ${secret} has been created for user "${principal.user}".`);
  return "ok";
}

/** SHOW SECRET: the caller's secrets on the working graph, masked. */
export function runShowSecret(auth: AuthService, _s: AstShow, ctx: StatementContext): Outcome {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const principal = principalOf(ctx);
  for (const secret of auth.store.secretsOf(principal.user).filter((x) => x.graph === graph)) {
    ctx.out.line(`    - Secret: ${secret.mask}`);
    ctx.out.line(`      - Alias: ${secret.alias}`);
    ctx.out.line(`      - GraphName: ${secret.graph}`);
  }
  return "ok";
}

/**
 * DROP SECRET <secret or alias>: one of the caller's secrets on the working graph, by alias
 * or value; a holder of WRITE_USER may drop anyone's by value.
 */
export function runDropSecret(auth: AuthService, s: AstDrop, ctx: StatementContext): Outcome {
  const where = workingGraph(ctx);
  if (!where.graph) return where.outcome!;
  const graph = where.graph;
  const principal = principalOf(ctx);
  const written = s.names[0]!.name;
  // What the answer echoes: an alias as written, a secret only masked.
  const shown = looksLikeCredential(written) ? maskCredential(written) : written;
  const byValue = auth.store.secretByDigest(credentialDigest(written));
  const mayDropOthers = decidePrivileges(auth.store, principal, ["WRITE_USER"], undefined).ok;
  const target = byValue && byValue.graph === graph && (byValue.user === principal.user || mayDropOthers)
    ? byValue
    : auth.store.secretsOf(principal.user).find((x) => x.alias === written && x.graph === graph);
  if (!target) {
    ctx.out.line(`Failed to drop secrets: [${shown}].`);
    return "error";
  }
  auth.submit([{ kind: "drop-secret", digest: target.digest }]);
  ctx.out.line(`Successfully dropped secrets: [${shown}].`);
  return "ok";
}
