// The gsql shell as a subprocess against a server with authentication on: logging in with
// -u/-p, with -u alone (the password read from input), with a secret (-s), failing to log in
// (exit code 41), a refused command (non-zero exit), and CREATE USER answered at the prompt.
import { expect } from "chai";
import { runShell } from "../gsql/gsql-helpers.js";
import { ROOT, createSecret, member, startAuthServer, type AuthServer } from "./auth-fixture.js";

describe("auth: the gsql shell logging in", function () {
  this.timeout(60_000);
  let s: AuthServer;
  let host: string[];

  before(async () => {
    s = await startAuthServer();
    expect((await s.gsql("CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)", ROOT)).returnCode).to.equal(0);
    await member(s, "shelly", "observer", "G", "G");
    host = ["--host", s.gsqlUrl];
  });
  after(() => s.close());

  it("logs in with -u and -p and runs the command", async () => {
    const run = await runShell([...host, "-u", "shelly", "-p", "pw-shelly-1", "-g", "G", "ls"]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout.split("\n")[0]).to.equal("---- Graph G");
  });

  it("reads the password from input when only -u is given", async () => {
    const run = await runShell([...host, "-u", "shelly", "-g", "G", "ls"], "pw-shelly-1\n");
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.include("---- Graph G");
  });

  it("a wrong password prints the login refusal and exits with 41", async () => {
    const run = await runShell([...host, "-u", "shelly", "-p", "wrong", "ls"]);
    expect(run.code).to.equal(41);
    expect(run.stdout).to.equal("Invalid username or password!\n");
  });

  it("logs in with a secret (-s), acting on the secret's graph", async () => {
    const secret = await createSecret(s, ROOT, "G", "shellsecret");
    const run = await runShell([...host, "-s", secret, "-g", "G", "ls"]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.include("---- Graph G");
    const bad = await runShell([...host, "-s", "z".repeat(32), "ls"]);
    expect(bad.code).to.equal(41);
    expect(bad.stdout).to.equal("Invalid username or password!\n");
    const both = await runShell([...host, "-u", "shelly", "-s", secret, "ls"]);
    expect(both.code).to.equal(201);
  });

  it("a refused command prints the refusal and exits non-zero", async () => {
    const run = await runShell([...host, "-u", "shelly", "-p", "pw-shelly-1", "CREATE VERTEX X (PRIMARY_ID id STRING)"]);
    expect(run.code).to.equal(212);
    expect(run.stdout).to.equal("Access denied: user 'shelly' does not have the privilege WRITE_SCHEMA at the global scope.\n");
    expect(s.server.services.engine.schema.vertexTypes.some((v) => v.name === "X")).to.equal(false);
  });

  it("CREATE USER takes the name and the password twice at the prompt", async () => {
    const run = await runShell([...host, "-u", "tigergraph", "-p", "tigergraph", "CREATE USER"], "alice\nal1ce-pw\nal1ce-pw\n");
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.equal('The user "alice" is created.\n');
    const login = await runShell([...host, "-u", "alice", "-p", "al1ce-pw", "SHOW USER"]);
    expect(login.code, login.stdout).to.equal(0);
    expect(login.stdout.split("\n")[0]).to.equal("  - Name: alice");
  });
});
