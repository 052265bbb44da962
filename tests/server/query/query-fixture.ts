// A server with a small graph and installed queries for the GET|POST /query tests: every
// parameter type and encoding, a query that writes, a runaway loop, and a slow reader.
// Requests go out raw (node:http), since a GET with a data payload is part of the interface
// and fetch() cannot send one.
import { request } from "node:http";
import { startGsqlServer, type GsqlTestServer } from "../gsql/gsql-helpers.js";
import { jsonOrUndefined } from "../../helpers/http.js";

export const SCHEMA_AND_QUERIES = `
CREATE VERTEX Person (PRIMARY_ID id STRING, age INT, score DOUBLE)
CREATE VERTEX City (PRIMARY_ID id STRING)
CREATE DIRECTED EDGE lives (FROM Person, TO City)
CREATE GRAPH G (Person, City, lives)
USE GRAPH G
CREATE QUERY scalars(INT i, UINT u, DOUBLE d, BOOL b, STRING s, DATETIME t, INT k = 7) FOR GRAPH G { PRINT i, u, d, b, s, t, k; }
CREATE QUERY sets(SET<INT> xs, BAG<STRING> ss) FOR GRAPH G { PRINT xs, ss; }
CREATE QUERY typed_vertex(VERTEX<Person> p) FOR GRAPH G { PRINT p; }
CREATE QUERY any_vertex(VERTEX v) FOR GRAPH G { PRINT v; }
CREATE QUERY typed_set(SET<VERTEX<Person>> ps) FOR GRAPH G { PRINT ps; }
CREATE QUERY any_set(SET<VERTEX> vs) FOR GRAPH G { PRINT vs; }
CREATE QUERY add_person(STRING id, INT age) FOR GRAPH G { INSERT INTO Person VALUES (id, age, 0.5); PRINT id; }
CREATE QUERY birthday(VERTEX<Person> p) FOR GRAPH G { S = {p}; S = SELECT x FROM S:x POST-ACCUM x.age = x.age + 1; PRINT S[S.age]; }
CREATE QUERY boom(INT x) FOR GRAPH G { EXCEPTION too_big(40001); IF x > 9 THEN RAISE too_big("x is too big"); END; PRINT 10 / x AS q; }
CREATE QUERY spin() FOR GRAPH G { INT n = 0; WHILE TRUE DO n = n + 1; END; PRINT n; }
CREATE QUERY slow_count(INT spins) FOR GRAPH G {
  S = {Person.*};
  INT a = S.size();
  INT i = 0;
  WHILE i < spins DO i = i + 1; END;
  T = {Person.*};
  PRINT a, T.size() AS b;
}
INSTALL QUERY ALL
`;

export const PEOPLE = { ann: 30, bob: 40 };

export interface QueryServer extends GsqlTestServer {
  /** Any method, any body (a GET with a payload included), raw headers. */
  send(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<{ status: number; text: string; json: any }>;
}

export async function startQueryServer(): Promise<QueryServer> {
  const s = await startGsqlServer();
  const setup = await s.file(SCHEMA_AND_QUERIES);
  if (setup.returnCode !== 0) throw new Error(`setup failed:\n${setup.text}`);
  const send: QueryServer["send"] = (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const req = request(`${s.restUrl}${path}`, { method, headers: body === undefined ? headers : { "Content-Length": Buffer.byteLength(body), ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const json = jsonOrUndefined(text);
          resolve({ status: res.statusCode ?? 0, text, json });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  const vertices = Object.fromEntries(Object.entries(PEOPLE).map(([id, age]) => [id, { age: { value: age } }]));
  const upsert = await send("POST", "/graph/G", JSON.stringify({ vertices: { Person: vertices, City: { oslo: {} } } }));
  if (upsert.status !== 200) throw new Error(`upsert failed: ${upsert.text}`);
  return { ...s, send };
}

export const V2 = { edition: "wasmgraph", api: "v2", schema: 0 };

/** The success envelope with `results`. */
export const ok = (results: unknown) => ({ version: V2, error: false, message: "", results });

/** A parameter error: 400, REST-30000, `message`. */
export const badParameter = (message: string) => ({ status: 400, json: { version: V2, error: true, message, results: [], code: "REST-30000" } });
