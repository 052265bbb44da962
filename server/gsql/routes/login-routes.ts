// Session endpoints of the shell client: login (base64 `user:password` body, JSON answer the
// client checks for compatibility and its prompt), dialog answers, version, the keyword list
// for completion, and the session-abort call the client sends on exit.
import type Router from "@koa/router";
import { EDITION, PRODUCT_VERSION } from "../../version.js";
import { authorized, requestPrincipal, type GsqlAppContext } from "../gsql-app.js";
import { BadGsqlRequest, readGsqlText } from "../request-text.js";

const MAX_LOGIN_BYTES = 64 * 1024;

export function registerLoginRoutes(router: Router, app: GsqlAppContext): void {
  router.post("/gsqlserver/gsql/login", async (ctx) => {
    const body = (await readGsqlText(ctx, MAX_LOGIN_BYTES, "plain")).trim();
    const credentials = decodeCredentials(body);
    ctx.type = "application/json";
    if (!credentials) {
      ctx.status = 400;
      ctx.body = { error: true, message: "The login body must be base64 of 'user:password'.", isClientCompatible: true };
      return;
    }
    const decision = await app.auth.login(credentials.user, credentials.password, ctx);
    if (!decision.ok) {
      ctx.status = 401;
      ctx.body = { error: true, message: decision.message || "Invalid username or password!", isClientCompatible: true };
      return;
    }
    const changePassword = app.auth.recommendPasswordChange?.(decision.user) === true;
    ctx.body = {
      error: false,
      message: "",
      isClientCompatible: true,
      welcomeMessage: `Welcome to ${EDITION}, speaking GSQL ${PRODUCT_VERSION}: every installed query runs as WebAssembly.\nType help for the commands, exit to leave.`
        + (changePassword ? `\nWarning: user ${decision.user} still has its default password, accepted only from this machine. Change it with ALTER PASSWORD.` : ""),
      shellPrompt: "GSQL > ",
      securityRecommendations: changePassword ? 1 : 0,
    };
  });

  router.post("/gsqlserver/gsql/dialog", async (ctx) => {
    if (!authorized(ctx, app)) return;
    const body = await readGsqlText(ctx, MAX_LOGIN_BYTES, "form");
    ctx.type = "text/plain; charset=utf-8";
    if (!app.exec.dialogs.answer(body, requestPrincipal(ctx))) {
      ctx.status = 404;
      ctx.body = "No dialog is waiting for this answer (it may have timed out).\n";
      return;
    }
    ctx.body = "";
  });

  router.post("/gsqlserver/gsql/version", (ctx) => {
    ctx.type = "text/plain; charset=utf-8";
    ctx.body = `GSQL version: ${PRODUCT_VERSION}\nwasmgraph ${EDITION}\n`;
  });

  router.get("/gsqlserver/gsql/getinfo", (ctx) => {
    ctx.type = "text/plain; charset=utf-8";
    ctx.body = COMPLETION_KEYWORDS.join(",") + "\n";
  });

  router.post("/gsqlserver/gsql/abortclientsession", (ctx) => {
    ctx.type = "text/plain; charset=utf-8";
    ctx.body = "";
  });
}

/** base64(urlencode(user) + ":" + password); undefined when the body is not of that form. */
export function decodeCredentials(body: string): { user: string; password: string } | undefined {
  if (body.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
  const text = Buffer.from(body, "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon <= 0) return undefined;
  let user: string;
  try {
    user = decodeURIComponent(text.slice(0, colon));
  } catch {
    throw new BadGsqlRequest("The user name in the login body is not valid URL encoding.");
  }
  return { user, password: text.slice(colon + 1) };
}

const COMPLETION_KEYWORDS = [
  "ls", "USE", "GRAPH", "GLOBAL", "CREATE", "VERTEX", "EDGE", "DIRECTED", "UNDIRECTED", "FROM", "TO", "PRIMARY_ID",
  "WITH", "REVERSE_EDGE", "DROP", "ALL", "QUERY", "INSTALL", "RUN", "INTERPRET", "SHOW", "LOADING", "JOB", "SCHEMA_CHANGE",
  "LOAD", "VALUES", "USING", "DEFINE", "FILENAME", "SET", "json_api", "exit_on_error", "CLEAR", "STORE", "BEGIN", "END",
  "ABORT", "help", "exit", "quit",
];
