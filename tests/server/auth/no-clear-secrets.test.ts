// Passwords, secrets and tokens never appear in clear where they could be read later: not in
// the logged engine commands, not in the auth state a snapshot stores, not in any file of
// the data directory (log segments and snapshots), not in the server log, and not in any
// answer except the one that hands a
// new secret or token to its owner. Password hashes stay out of logs and answers too. The
// logged commands, replayed on a fresh engine, rebuild the same auth state.
import { expect } from "chai";
import { Engine } from "../../../server/engine/engine.js";
import { decodeCommand, encodeCommand } from "../../../server/engine/command-codec.js";
import { createStore } from "../../../runtime-wasm/store/index.js";
import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, basic, bearer, createSecret, createUser, requestToken, startAuthServer, type AuthServer } from "./auth-fixture.js";

describe("auth: no secret in clear", function () {
  this.timeout(60_000);
  const commands: string[] = [];
  const answers: string[] = [];
  const issued: string[] = [];
  let s: AuthServer;

  before(async () => {
    const engine = new Engine({ createStore });
    engine.commandLog = { prepare: (c) => () => void commands.push(encodeCommand(c)) };
    s = await startAuthServer({ engine });
    const keep = <T extends { text?: string; raw?: string }>(a: T) => {
      answers.push(a.raw ?? a.text ?? "");
      return a;
    };
    keep(await s.gsql("CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)", ROOT));
    keep(await createUser(s, "keeper", "Pa55word-keeper"));
    keep(await s.gsql("GRANT ROLE querywriter ON GRAPH G TO keeper", ROOT));
    keep(await s.gsql("ALTER PASSWORD", basic("keeper", "Pa55word-keeper"), { answers: ["N3w-keeper-pass"] }));
    keep(await s.gsql("ALTER PASSWORD", ROOT, { answers: ["R00t-pass-changed"] }));
    const keeper = basic("keeper", "N3w-keeper-pass");
    const secret = await createSecret(s, keeper, "G", "kalias");
    const other = await createSecret(s, keeper, "G");
    issued.push(secret, other);
    const token = await requestToken(s, secret, 3600);
    const token2 = (await s.rest("POST", "/requesttoken", keeper, '{"graph":"G"}')).json.token as string;
    issued.push(token, token2);
    // A refresh answers with the token it refreshed (the compat answer shape): the caller's own, not kept here.
    const refreshed = await s.rest("PUT", "/requesttoken", undefined, JSON.stringify({ secret, token, lifetime: 7200 }));
    expect(refreshed.json.token).to.equal(token);
    keep(await s.rest("GET", "/graph/G/vertices/P", bearer(token)));
    keep(await s.rest("GET", "/graph/G/vertices/P", bearer(token.slice(0, 31) + "x")));
    keep(await s.rest("GET", "/graph/G/vertices/P", bearer(token.slice(0, 20))));
    keep(await s.gsql("SHOW SECRET", keeper, { graph: "G" }));
    keep(await s.gsql("SHOW USER", basic("tigergraph", "R00t-pass-changed")));
    keep(await s.gsql(`DROP SECRET ${other}`, keeper, { graph: "G" }));
    keep(await s.gsql(`DROP SECRET ${secret.slice(0, 31)}q`, keeper, { graph: "G" }));
    keep(await s.rest("DELETE", "/requesttoken", undefined, JSON.stringify({ secret, token: token2 })));
    keep(await s.gsqlHttp("POST", "/gsqlserver/gsql/login", undefined, Buffer.from("keeper:wrong-guess").toString("base64")));
  });
  after(() => s.close());

  const clearValues = () => ["Pa55word-keeper", "N3w-keeper-pass", "R00t-pass-changed", ...issued];

  it("keeps only digests of secrets and tokens and hashes of passwords in the logged commands", () => {
    const log = commands.join("\n");
    expect(commands.some((c) => c.includes('"kind":"auth"'))).to.equal(true);
    for (const value of clearValues()) expect(log, value).to.not.include(value);
    // The digests are there instead (SHA-256, hex).
    expect(log).to.match(/"digest":"[0-9a-f]{64}"/);
    expect(log).to.match(/"scheme":"scrypt","N":1024,"r":8,"p":1,"salt":"[A-Za-z0-9+/=]{24}","hash":"[A-Za-z0-9+/=]{44}"/);
  });

  it("keeps no clear value in the auth state a snapshot stores, and replaying the log rebuilds it", () => {
    const state = s.server.services.engine.auth.snapshot();
    const text = JSON.stringify(state);
    for (const value of clearValues()) expect(text, value).to.not.include(value);
    const replayed = new Engine({ createStore });
    for (const line of commands) replayed.apply(decodeCommand(line));
    expect(replayed.auth.snapshot()).to.deep.equal(state);
  });

  it("salts each password: the same password gives different hashes", async () => {
    const root = basic("tigergraph", "R00t-pass-changed");
    await createUser(s, "twin1", "same-password", root);
    await createUser(s, "twin2", "same-password", root);
    const a = s.server.services.engine.auth.user("twin1")!.password;
    const b = s.server.services.engine.auth.user("twin2")!.password;
    expect(a.salt).to.not.equal(b.salt);
    expect(a.hash).to.not.equal(b.hash);
  });

  it("shows no clear value and no hash in answers (other than the one issuing it) or in the server log", () => {
    const hashes = s.server.services.engine.auth.userList().flatMap((u) => [u.password.hash, u.password.salt]);
    const everything = [...answers, ...s.logged].join("\n");
    for (const value of [...clearValues(), ...hashes]) {
      const holder = [...answers, ...s.logged].find((text) => text.includes(value));
      expect(holder, value).to.equal(undefined);
    }
    const masked = `${issued[1]!.slice(0, 3)}****${issued[1]!.slice(-3)}`;
    expect(everything).to.include(`Successfully dropped secrets: [${masked}].`);
  });
});

describe("auth: the data directory", function () {
  this.timeout(60_000);
  let root: string;
  before(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), "wasmgraph-auth-"));
  });
  after(() => fsp.rm(root, { recursive: true, force: true }));

  /** Every file below `dir`, whole, as bytes. */
  async function filesBelow(dir: string): Promise<{ file: string; bytes: Buffer }[]> {
    const out: { file: string; bytes: Buffer }[] = [];
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) out.push(...(await filesBelow(full)));
      else out.push({ file: full, bytes: await fsp.readFile(full) });
    }
    return out;
  }

  it("holds no clear password, secret or token in its log or snapshots, and keeps them across restarts", async () => {
    const dataDir = path.join(root, "data");
    const first = await startAuthServer({ dataDir });
    const clear: string[] = ["Pa55-durable", "R00t-durable"];
    let secret: string;
    let token: string;
    try {
      expect((await first.gsql("CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)", ROOT)).returnCode).to.equal(0);
      expect((await createUser(first, "durable", "Pa55-durable")).returnCode).to.equal(0);
      expect((await first.gsql("GRANT ROLE queryreader ON GRAPH G TO durable", ROOT)).returnCode).to.equal(0);
      expect((await first.gsql("ALTER PASSWORD", ROOT, { answers: ["R00t-durable"] })).returnCode).to.equal(0);
      secret = await createSecret(first, basic("durable", "Pa55-durable"), "G", "kept");
      token = await requestToken(first, secret);
      const dropped = await createSecret(first, basic("durable", "Pa55-durable"), "G", "gone");
      expect((await first.gsql("DROP SECRET gone", basic("durable", "Pa55-durable"), { graph: "G" })).returnCode).to.equal(0);
      clear.push(secret, token, dropped);
    } finally {
      await first.close();
    }
    const files = await filesBelow(dataDir);
    expect(files.some((f) => f.file.includes(`${path.sep}snapshots${path.sep}`)), files.map((f) => f.file).join(", ")).to.equal(true);
    expect(files.some((f) => f.file.endsWith(".wal"))).to.equal(true);
    for (const value of clear) {
      const holder = files.find((f) => f.bytes.includes(Buffer.from(value, "utf8")));
      expect(holder?.file, value).to.equal(undefined);
    }

    const second = await startAuthServer({ dataDir });
    try {
      expect((await second.gsql("ls", basic("durable", "Pa55-durable"), { graph: "G" })).returnCode).to.equal(0);
      expect((await second.gsql("ls", ROOT)).status).to.equal(401);
      expect((await second.gsql("SHOW USER", basic("tigergraph", "R00t-durable"))).returnCode).to.equal(0);
      expect((await second.rest("GET", "/graph/G/vertices/P", bearer(token))).status).to.equal(200);
      expect(second.server.auth.authenticateSecret(secret)?.user).to.equal("durable");
      expect(second.server.auth.authenticateSecret(clear[4]!)).to.equal(undefined);
    } finally {
      await second.close();
    }
  });
});
