// Query writes are durable: `wasmgraph serve --data DIR` as a process, queries that insert,
// update and delete run over REST, then the process is killed with SIGKILL (while more
// writing queries are in flight) and started again on the same directory. Every write a
// query answered for is there after the restart, and the queries are installed again.
// Doubles come back bit for bit (-0 keeps its sign through the log); the store refuses
// Infinity and NaN, so a query producing one fails its writes, all of them.
import { expect } from "chai";
import net from "node:net";
import { startServerProcess, type ServerProcess } from "../persist/server-process.js";
import { useTempDir } from "../persist/temp-dir.js";

const SETUP = `
CREATE VERTEX Person (PRIMARY_ID id STRING, age INT)
CREATE GRAPH G (Person)
USE GRAPH G
CREATE QUERY add_person(STRING id, INT age) FOR GRAPH G { INSERT INTO Person VALUES (id, age); PRINT id; }
CREATE QUERY birthday(VERTEX<Person> p) FOR GRAPH G { S = {p}; S = SELECT x FROM S:x POST-ACCUM x.age = x.age + 1; PRINT S.size() AS n; }
CREATE QUERY remove(VERTEX<Person> p) FOR GRAPH G { S = {p}; DELETE x FROM S:x; PRINT S.size() AS n; }
INSTALL QUERY ALL
`;

/** A port nobody listens on right now (for the GSQL-server endpoints, whose port the tests must know). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("REST /query: writes survive kill -9", function () {
  this.timeout(60_000);
  const tmp = useTempDir("query-writes");
  let server: ServerProcess | undefined;
  afterEach(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
  });

  const start = async () => {
    const gsqlPort = await freePort();
    server = await startServerProcess(["--data", tmp.dataDir, "--gsql-port", String(gsqlPort)]);
    return { rest: server.base, gsql: `http://127.0.0.1:${gsqlPort}` };
  };
  const json = async (url: string) => (await fetch(url)).json() as Promise<any>;
  const kill = async () => {
    server!.child.kill("SIGKILL");
    expect(await server!.exited).to.equal("SIGKILL");
  };
  const people = async (rest: string) => {
    const r = await json(`${rest}/graph/G/vertices/Person`);
    return Object.fromEntries((r.results as { v_id: string; attributes: { age: number } }[]).map((v) => [v.v_id, v.attributes.age]));
  };

  it("inserts, updates and deletes a query acknowledged are there after SIGKILL and restart, also with writes in flight", async () => {
    let { rest, gsql } = await start();
    const setup = await (await fetch(`${gsql}/gsqlserver/gsql/file`, { method: "POST", body: encodeURIComponent(SETUP) })).text();
    expect(setup).to.contain("__GSQL__RETURN__CODE__,0");
    for (const [id, age] of [["ann", 30], ["bob", 40], ["cy", 50]] as const) {
      expect(await json(`${rest}/query/G/add_person?id=${id}&age=${age}`)).to.include({ error: false });
    }
    expect((await json(`${rest}/query/G/birthday?p=ann`)).results).to.deep.equal([{ n: 1 }]);
    expect((await json(`${rest}/query/G/remove?p=cy`)).results).to.deep.equal([{ n: 1 }]);

    // Then a stream of inserting queries, killed once some are acknowledged and more are in flight.
    const acknowledged = new Set<string>();
    const sent: Promise<void>[] = [];
    let n = 0;
    const giveUpAt = Date.now() + 10_000;
    while (acknowledged.size < 10 && Date.now() < giveUpAt) {
      const id = `p${n}`;
      sent.push(
        fetch(`${rest}/query/G/add_person?id=${id}&age=${n++}`)
          .then(async (r) => {
            if (r.status === 200 && ((await r.json()) as { error: boolean }).error === false) acknowledged.add(id);
          })
          .catch(() => undefined),
      );
      if (n % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await kill();
    await Promise.all(sent);
    expect(acknowledged.size, "writes were acknowledged before the kill").to.be.at.least(10);

    ({ rest, gsql } = await start());
    const now = await people(rest);
    expect({ ann: now.ann, bob: now.bob, cy: now.cy }).to.deep.equal({ ann: 31, bob: 40, cy: undefined });
    for (const id of acknowledged) expect(now, `acknowledged ${id}`).to.have.property(id);
    // An insert is all or nothing: each vertex present has the age its query gave it.
    for (const [id, age] of Object.entries(now)) if (id.startsWith("p")) expect(age, id).to.equal(Number(id.slice(1)));
    // The queries came back installed: they run at once.
    expect((await json(`${rest}/query/G/birthday?p=bob`)).results).to.deep.equal([{ n: 1 }]);
    expect((await people(rest)).bob).to.equal(41);
  });

  it("doubles a query or an upsert wrote come back bit for bit (-0, extremes); a query writing Infinity or NaN is refused and leaves nothing", async () => {
    let { rest, gsql } = await start();
    const setup = await (await fetch(`${gsql}/gsqlserver/gsql/file`, { method: "POST", body: encodeURIComponent(DOUBLES) })).text();
    expect(setup, setup).to.contain("__GSQL__RETURN__CODE__,0");
    expect(await json(`${rest}/query/D/put?id=neg_zero&x=-0.0`)).to.include({ error: false });
    expect(await json(`${rest}/query/D/put?id=tiny&x=5e-324`)).to.include({ error: false });
    expect(await json(`${rest}/query/D/put?id=huge&x=-1.5e308`)).to.include({ error: false });
    const upsert = await fetch(`${rest}/graph/D`, { method: "POST", body: '{"vertices":{"N":{"up_zero":{"x":{"value":-0.0}},"third":{"x":{"value":0.1}}}}}' });
    expect(upsert.status).to.equal(200);
    // The store keeps only finite doubles: exp(1000) (Infinity) and sqrt(-1) (NaN) refuse the run's writes, all of them.
    for (const expression of ["inf", "nan"]) {
      const refused = await json(`${rest}/query/D/put_odd?which=${expression}`);
      expect(refused).to.include({ error: true, message: "Runtime Error: the query's data modification failed: vertices[1].attributes[0]: invalid value for attribute x of type DOUBLE in N" });
    }
    const before = await doubles(rest);
    expect(before).to.deep.equal({ neg_zero: 0, tiny: 5e-324, huge: -1.5e308, up_zero: 0, third: 0.1 });
    const signs = await json(`${rest}/query/D/signs`);
    expect(signs.results).to.deep.equal([{ negative: ["neg_zero", "up_zero"] }]);

    await kill();
    ({ rest, gsql } = await start());
    const after = await doubles(rest);
    expect(after).to.deep.equal(before);
    expect(Object.is(after.tiny, 5e-324)).to.equal(true);
    // -0 kept its sign through the log (plain JSON would have written 0): 1/x is still -Infinity.
    expect((await json(`${rest}/query/D/signs`)).results).to.deep.equal([{ negative: ["neg_zero", "up_zero"] }]);
  });
});

/** Doubles of N by id, as GET returns them. */
async function doubles(rest: string): Promise<Record<string, number>> {
  const r = (await (await fetch(`${rest}/graph/D/vertices/N`)).json()) as { results: { v_id: string; attributes: { x: number } }[] };
  return Object.fromEntries(r.results.map((v) => [v.v_id, v.attributes.x]));
}

const DOUBLES = `
CREATE VERTEX N (PRIMARY_ID id STRING, x DOUBLE)
CREATE GRAPH D (N)
USE GRAPH D
CREATE QUERY put(STRING id, DOUBLE x) FOR GRAPH D { INSERT INTO N VALUES (id, x); PRINT id; }
CREATE QUERY put_odd(STRING which) FOR GRAPH D {
  DOUBLE v = 0;
  IF which == "inf" THEN v = exp(1000.0); ELSE v = sqrt(-1.0); END;
  INSERT INTO N VALUES ("odd_ok", 1.5);
  INSERT INTO N VALUES ("odd", v);
  PRINT v;
}
CREATE QUERY signs() FOR GRAPH D {
  SetAccum<VERTEX> @@negative;
  S = {N.*};
  S = SELECT n FROM S:n WHERE abs(n.x) < 1e-300 AND n.x / 1e-300 == 0 AND atan2(n.x, -1.0) < 0 ACCUM @@negative += n;
  PRINT @@negative AS negative;
}
INSTALL QUERY ALL
`;
