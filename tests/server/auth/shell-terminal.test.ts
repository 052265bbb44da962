// The gsql shell on a terminal (a pseudo-terminal made by `script`): a password typed at a
// hidden prompt is never echoed, and the arrow keys never bring it back from the history;
// the commands and the non-secret answers before it still come back.
import { expect } from "chai";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../../../server/serve.js";
import { GSQL_BIN } from "../gsql/gsql-helpers.js";

const UP = "\x1b[A";
const hasScript = spawnSync("script", ["--version"]).status === 0;

describe("gsql shell on a terminal: secrets stay hidden", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let home: string;
  before(async function () {
    if (!hasScript) this.skip();
    server = await startServer({ port: 0, gsqlPort: 0, log: () => undefined, auth: { enabled: false, scryptCost: { N: 1024, r: 8, p: 1 } } });
    home = mkdtempSync(join(tmpdir(), "gsql-tty-"));
  });
  after(async () => {
    await server?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("CREATE USER and ALTER ACL PASSWORD: passwords are not shown, not recalled by the arrow keys, not in the history file", async () => {
    const command = `stty cols 120; exec "${process.execPath}" "${GSQL_BIN}" --host http://127.0.0.1:${server.gsqlPort}`;
    const child = spawn("script", ["-qfec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, HOME: home } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    const until = async (text: string, from: number) => {
      for (let i = 0; i < 200 && out.indexOf(text, from) < 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(out.indexOf(text, from), `waiting for ${JSON.stringify(text)} in ${JSON.stringify(out)}`).to.be.greaterThan(-1);
      return out.indexOf(text, from) + text.length;
    };
    const closed = new Promise((resolve) => child.on("close", resolve));
    try {
      let at = await until("GSQL > ", 0);
      child.stdin.write("CREATE USER\r");
      at = await until("User Name : ", at);
      child.stdin.write("tty_user\r");
      at = await until("New user Password for tty_user : ", at);
      child.stdin.write("Hidden-Pa55\r");
      at = await until("Re-enter user Password for tty_user : ", at);
      child.stdin.write("Hidden-Pa55\r");
      at = await until('The user "tty_user" is created.', at);
      at = await until("GSQL > ", at);
      // Up recalls the user name (the answer before the passwords), then the command.
      child.stdin.write(UP);
      at = await until("tty_user", at);
      child.stdin.write(UP);
      at = await until("CREATE USER", at);
      // An ACL password typed in the command: the line stays out of the history.
      child.stdin.write('\x15ALTER USER tty_user ACL PASSWORD SET "Acl-Typed-5"\r');
      at = await until('ACL password of user "tty_user" has been set.', at);
      // Asked for in dialogs: neither answer is shown.
      child.stdin.write("ALTER USER tty_user ACL PASSWORD\r");
      at = await until("Current ACL Password : ", at);
      child.stdin.write("Acl-Typed-5\r");
      at = await until("New ACL Password : ", at);
      child.stdin.write("Acl-Typed-6\r");
      at = await until("Re-enter ACL Password : ", at);
      child.stdin.write("Acl-Typed-6\r");
      at = await until('ACL password of user "tty_user" has been changed.', at);
      at = await until("GSQL > ", at);
      child.stdin.write(UP);
      at = await until("ALTER USER tty_user ACL PASSWORD", at);
      // The command with the password in it is not in the history: up goes past it.
      child.stdin.write(UP);
      at = await until("GSQL > tty_user", at);
      child.stdin.write("\x15exit\r");
      await closed;
    } finally {
      // A failed wait must not leave the terminal session behind.
      if (child.exitCode === null) child.kill();
    }
    expect(out).not.to.include("Hidden-Pa55");
    expect(server.services.engine.auth.user("tty_user")).to.not.equal(undefined);
    const history = readFileSync(join(home, ".wasmgraph", "gsql_history"), "utf8");
    expect(history).to.include("CREATE USER");
    expect(history).not.to.include("Hidden-Pa55");
    expect(out).not.to.include("Acl-Typed-6");
    expect(history).to.include("ALTER USER tty_user ACL PASSWORD\n");
    expect(history).not.to.include("Acl-Typed");
  });
});
