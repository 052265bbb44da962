// Test fixture: a real server (REST + GSQL-server endpoints on ephemeral ports) with
// authentication on, a cheap scrypt cost and a clock the test moves; requests sent as the
// shell and REST clients send them, GSQL dialogs answered as the shell answers them, and
// helpers that set up users with roles, secrets and tokens through the real commands.
import { startServer, type RunningServer, type ServeOptions } from "../../../server/serve.js";
import { splitAnswer, type GsqlAnswer } from "../gsql/gsql-helpers.js";
import { jsonOrUndefined } from "../../helpers/http.js";

export const TEST_SCRYPT = { N: 1024, r: 8, p: 1 };

export interface AuthServer {
  server: RunningServer;
  restUrl: string;
  gsqlUrl: string;
  logged: string[];
  /** The clock the auth service reads (milliseconds); tests move it to expire tokens. */
  clock: { now: number };
  /** GSQL text sent to /gsqlserver/gsql/file with `authorization`, answering dialogs in order. */
  gsql(text: string, authorization: string | undefined, options?: { graph?: string; answers?: string[]; endpoint?: "file" | "command" }): Promise<GsqlAnswer>;
  rest(method: string, path: string, authorization?: string, body?: string): Promise<HttpAnswer>;
  gsqlHttp(method: string, path: string, authorization?: string, body?: string): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export interface HttpAnswer {
  status: number;
  text: string;
  json: any;
}

export function basic(user: string, password: string): string {
  return "Basic " + Buffer.from(`${encodeURIComponent(user)}:${password}`, "utf8").toString("base64");
}

export function bearer(token: string): string {
  return `Bearer ${token}`;
}

export const ROOT = basic("tigergraph", "tigergraph");

export async function startAuthServer(options: Partial<ServeOptions> = {}): Promise<AuthServer> {
  const logged: string[] = [];
  const clock = { now: Date.parse("2024-06-01T12:00:00Z") };
  const server = await startServer({
    port: 0,
    gsqlPort: 0,
    log: (line) => logged.push(line),
    ...options,
    auth: { enabled: true, scryptCost: TEST_SCRYPT, now: () => clock.now, lockout: false, ...options.auth },
  });
  const restUrl = `http://127.0.0.1:${server.restPort}`;
  const gsqlUrl = `http://127.0.0.1:${server.gsqlPort}`;
  const http = async (base: string, method: string, path: string, authorization?: string, body?: string): Promise<HttpAnswer> => {
    const headers: Record<string, string> = {};
    if (authorization !== undefined) headers.Authorization = authorization;
    const res = await fetch(base + path, { method, headers, body });
    const text = await res.text();
    const json = jsonOrUndefined(text);
    return { status: res.status, text, json };
  };
  return {
    server,
    restUrl,
    gsqlUrl,
    logged,
    clock,
    gsql: (text, authorization, opts = {}) => sendGsql(gsqlUrl, text, authorization, opts),
    rest: (method, path, authorization, body) => http(restUrl, method, path, authorization, body),
    gsqlHttp: (method, path, authorization, body) => http(gsqlUrl, method, path, authorization, body),
    close: () => server.close(),
  };
}

/** Sends GSQL text, streaming the answer and posting each dialog's answer as the shell does. */
export async function sendGsql(
  gsqlUrl: string,
  text: string,
  authorization: string | undefined,
  options: { graph?: string; answers?: string[]; endpoint?: "file" | "command" } = {},
): Promise<GsqlAnswer> {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (authorization !== undefined) headers.Authorization = authorization;
  if (options.graph !== undefined) headers["GSQL-Cookie"] = JSON.stringify({ graph: options.graph });
  const res = await fetch(`${gsqlUrl}/gsqlserver/gsql/${options.endpoint ?? "file"}`, { method: "POST", body: encodeURIComponent(text), headers });
  const answers = [...(options.answers ?? [])];
  let raw = "";
  let pending = "";
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const piece = decoder.decode(chunk, { stream: true });
    raw += piece;
    pending += piece;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (!line.startsWith("__GSQL__INTERACT__,")) continue;
      const id = line.split(",")[2]!;
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`no answer left for dialog line ${line}`);
      const dialogHeaders = { ...headers };
      const posted = await fetch(`${gsqlUrl}/gsqlserver/gsql/dialog`, { method: "POST", body: encodeURIComponent(`${id},${answer}`), headers: dialogHeaders });
      await posted.text();
    }
  }
  return splitAnswer(res.status, raw);
}

/** Users with a role each, their passwords, secrets and tokens, made through GSQL and /requesttoken. */
export interface Member {
  user: string;
  password: string;
  secret: string;
  token: string;
}

/** CREATE USER through the dialog, as the superuser. */
export async function createUser(s: AuthServer, user: string, password: string, as = ROOT): Promise<GsqlAnswer> {
  return s.gsql("CREATE USER", as, { answers: [`${encodeURIComponent(user)}:${password}`] });
}

/** A user holding `role` on `graph` (or globally), with a secret on `secretGraph` and a token from it. */
export async function member(s: AuthServer, user: string, role: string | undefined, graph: string | undefined, secretGraph: string): Promise<Member> {
  const password = `pw-${user}-1`;
  const created = await createUser(s, user, password);
  if (created.returnCode !== 0) throw new Error(`CREATE USER ${user}: ${created.text}`);
  if (role !== undefined) {
    const granted = await s.gsql(`GRANT ROLE ${role}${graph ? ` ON GRAPH ${graph}` : ""} TO ${user}`, ROOT);
    if (granted.returnCode !== 0) throw new Error(`GRANT ${role}: ${granted.text}`);
  }
  const secret = await createSecret(s, basic(user, password), secretGraph);
  const token = await requestToken(s, secret);
  return { user, password, secret, token };
}

export async function createSecret(s: AuthServer, authorization: string, graph: string, alias?: string): Promise<string> {
  const answer = await s.gsql(`CREATE SECRET${alias ? " " + alias : ""}`, authorization, { graph });
  const match = /^The secret: (\S+) has been created for user "[^"]*"\.$/m.exec(answer.text);
  if (!match) throw new Error(`CREATE SECRET: ${answer.text}`);
  return match[1]!;
}

export async function requestToken(s: AuthServer, secret: string, lifetime?: number | string): Promise<string> {
  const body: Record<string, unknown> = { secret };
  if (lifetime !== undefined) body.lifetime = lifetime;
  const res = await s.rest("POST", "/requesttoken", undefined, JSON.stringify(body));
  if (res.status !== 200 || typeof res.json?.token !== "string") throw new Error(`requesttoken: ${res.status} ${res.text}`);
  return res.json.token as string;
}
