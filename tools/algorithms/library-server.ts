// How the algorithm-library installer talks to a running server: like the gsql shell, over
// the GSQL-server endpoints (port 14240 by default): the graph's schema and its queries as
// JSON, GSQL statements (DROP, CREATE, INSTALL QUERY) as text whose output is collected.
// It also finds the REST address of the installed queries and whether the server requires
// authentication, for the GET requests the installer prints.
import { GsqlClient, type Terminal } from "../gsql-shell/client.js";
import { restAuthEnabled } from "../../server/auth/auth-probe.js";

export interface ServerOptions {
  /** GSQL-server address, e.g. http://127.0.0.1:14240. */
  gsqlUrl: string;
  user: string;
  password: string;
  /** REST address of the queries; by default what INSTALL QUERY reports, else port 9000 of the GSQL host. */
  restUrl?: string;
}

export interface SchemaAttribute {
  name: string;
  type: string;
}

export interface GraphTypes {
  graph: string;
  vertexTypes: { name: string; attributes: SchemaAttribute[] }[];
  /** `reverseEdge`: the type paired with a directed one by WITH REVERSE_EDGE (either side names the other). */
  edgeTypes: { name: string; directed: boolean; reverseEdge?: string; pairs: { from: string; to: string }[]; attributes: SchemaAttribute[] }[];
}

export interface StatementResult {
  /** The server's return code: 0 when every statement succeeded. */
  code: number;
  lines: string[];
}

export class ServerError extends Error {}

export class LibraryServer {
  private readonly client: GsqlClient;
  private restBase: string | undefined;

  constructor(private readonly options: ServerOptions) {
    this.client = new GsqlClient({ baseUrl: options.gsqlUrl, user: options.user, password: options.password });
    this.restBase = options.restUrl?.replace(/\/+$/, "");
  }

  /** Logs in; throws ServerError with the server's message when refused. */
  async login(): Promise<void> {
    const answer = await this.client.login();
    if (!answer.ok) throw new ServerError(answer.message || "Invalid username or password!");
  }

  /** The vertex and edge types of a graph, or undefined when it does not exist. */
  async graphTypes(graph: string): Promise<GraphTypes | undefined> {
    const json = await this.getJson(`/gsqlserver/gsql/schema?graph=${encodeURIComponent(graph)}`);
    if (json.error) return undefined;
    const r = json.results as {
      VertexTypes: { Name: string; Attributes: { AttributeName: string; AttributeType: { Name: string } }[] }[];
      EdgeTypes: { Name: string; IsDirected: boolean; EdgePairs?: { From: string; To: string }[]; Config?: { REVERSE_EDGE?: string }; Attributes: { AttributeName: string; AttributeType: { Name: string } }[] }[];
    };
    const attrs = (list: { AttributeName: string; AttributeType: { Name: string } }[]) => list.map((a) => ({ name: a.AttributeName, type: a.AttributeType.Name }));
    return {
      graph,
      vertexTypes: r.VertexTypes.map((v) => ({ name: v.Name, attributes: attrs(v.Attributes) })),
      edgeTypes: r.EdgeTypes.map((e) => ({
        name: e.Name,
        directed: e.IsDirected,
        pairs: (e.EdgePairs ?? []).map((p) => ({ from: p.From, to: p.To })),
        attributes: attrs(e.Attributes),
        ...(e.Config?.REVERSE_EDGE ? { reverseEdge: e.Config.REVERSE_EDGE } : {}),
      })),
    };
  }

  /** Names of the queries of a graph. */
  async queryNames(graph: string): Promise<string[]> {
    const json = await this.getJson(`/gsqlserver/gsql/queryinfo?graph=${encodeURIComponent(graph)}`);
    if (json.error) throw new ServerError(String(json.message));
    return (json.results as { queryname: string }[]).map((q) => q.queryname);
  }

  /** Runs GSQL statements (as a command file) in the graph's scope, or the global one; collects what they print. */
  async run(graph: string | undefined, statements: string): Promise<StatementResult> {
    const lines: string[] = [];
    const terminal: Terminal = {
      print: (line) => lines.push(line),
      progress: (line, done) => {
        if (done) lines.push(line);
      },
      cursorUp: () => undefined,
      cleanLine: () => undefined,
      ask: async () => undefined,
    };
    const code = await this.client.run("file", graph === undefined ? statements : `USE GRAPH ${graph}\n${statements}`, terminal);
    for (const line of lines) {
      // INSTALL QUERY prints the REST call of each query: the address the server gives them
      const m = /curl -X GET '(https?:\/\/[^/']+)\/query\//.exec(line);
      if (m && this.options.restUrl === undefined) this.restBase = m[1];
    }
    return { code, lines };
  }

  /** Where GET /query/... is served. */
  restUrl(): string {
    if (this.restBase) return this.restBase;
    const url = new URL(this.options.gsqlUrl);
    return `${url.protocol}//${url.hostname.includes(":") ? `[${url.hostname}]` : url.hostname}:9000`;
  }

  /** Whether REST requests need `Authorization: Bearer` (false when the REST port does not answer). */
  async authEnabled(): Promise<boolean> {
    try {
      return await restAuthEnabled(this.restUrl());
    } catch {
      return false;
    }
  }

  private async getJson(path: string): Promise<{ error: boolean; message?: unknown; results?: unknown }> {
    const auth = "Basic " + Buffer.from(`${encodeURIComponent(this.options.user)}:${this.options.password}`, "utf8").toString("base64");
    let res: Response;
    try {
      res = await fetch(this.options.gsqlUrl + path, { headers: { Authorization: auth } });
    } catch (err) {
      throw new ServerError(`No GSQL server answers at ${this.options.gsqlUrl} (${(err as Error).message}).`);
    }
    const text = await res.text();
    try {
      const json = JSON.parse(text) as { error: boolean | string; message?: unknown; results?: unknown };
      return { ...json, error: json.error === true || json.error === "true" };
    } catch {
      throw new ServerError(`The GSQL server answered ${path} with HTTP ${res.status} and no JSON.`);
    }
  }
}
