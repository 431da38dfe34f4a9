// npm run user: accounts without a browser. Exit 0 done, 1 failed (with the reason), 2 bad usage
// (with the usage); passwords from standard input or generated and printed once, stored as Argon2id.
// The cases run the CLI in-process (lib/auth/user-cli.ts); the last one starts the script itself
// (seconds per process on a busy machine) to prove the exit codes and streams a shell sees.
import { spawn } from "node:child_process";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verify } from "@node-rs/argon2";
import { userCli } from "@/lib/auth/user-cli";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";
import { TEST_ENV } from "./tally-server";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

type Ran = { code: number | null; out: string };

async function user(args: string[], stdin = ""): Promise<Ran> {
  let out = "";
  const code = await userCli(args, {
    stdin: Readable.from([stdin]),
    out: (line) => (out += `${line}\n`),
    err: (text) => (out += text),
  });
  return { code, out };
}

function userProcess(args: string[], stdin = ""): Promise<Ran & { stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      path.resolve("node_modules/.bin/tsx"),
      ["--conditions=react-server", "scripts/user.ts", ...args],
      {
        env: { ...process.env, ...TEST_ENV, DATABASE_URL: t.url, TALLY_LOG_LEVEL: "error" },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let out = "";
    let stdout = "";
    child.stdout.on("data", (d) => ((out += d), (stdout += d)));
    child.stderr.on("data", (d) => (out += d));
    child.stdin.end(stdin);
    child.on("exit", (code) => resolve({ code, out, stdout }));
  });
}

const hashOf = async (email: string) =>
  (await db().user.findUniqueOrThrow({ where: { email }, omit: { passwordHash: false } })).passwordHash;

describe("npm run user", () => {
  it("adds, lists, resets and disables accounts; each change is in the audit log as the system", async () => {
    const added = await user(
      ["add", "Ana@Example.com", "--name", "Ana Lima", "--role", "operator", "--password-stdin"],
      "a long passphrase here\n",
    );
    expect(added).toEqual({ code: 0, out: "added ana@example.com (operator)\n" });
    const hash = await hashOf("ana@example.com");
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verify(hash, "a long passphrase here")).toBe(true);

    const generated = await user(["add", "bo@example.com", "--name", "Bo", "--role", "viewer"]);
    expect(generated.code).toBe(0);
    const shown = /password \(shown once\): (\S+)/.exec(generated.out)?.[1] ?? "";
    expect(shown.length).toBeGreaterThanOrEqual(20);
    expect(await verify(await hashOf("bo@example.com"), shown)).toBe(true);

    const list = await user(["list"]);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/ana@example\.com\s+operator\s+active\s+Ana Lima/);
    expect(list.out).toMatch(/bo@example\.com\s+viewer\s+active\s+Bo/);

    // Issue 27: a reset revokes the person's personal API tokens too (they survived it before).
    expect((await user(["token", "bo@example.com", "--name", "bo-script", "--role", "viewer"])).code).toBe(0);
    const reset = await user(["reset-password", "bo@example.com", "--password-stdin"], "another long one\n");
    expect(reset).toEqual({
      code: 0,
      out: "password of bo@example.com reset; 0 session(s) ended, 1 personal API token(s) revoked\n",
    });
    const bo = await db().user.findUniqueOrThrow({ where: { email: "bo@example.com" } });
    expect(await db().apiToken.count({ where: { userId: bo.id, revokedAt: null } })).toBe(0);
    expect(await verify(await hashOf("bo@example.com"), "another long one")).toBe(true);

    const token = await user(["token", "bo@example.com", "--name", "bo-ci", "--role", "viewer", "--expires-days", "7"]);
    expect(token.code, token.out).toBe(0);
    expect(token.out).toMatch(
      /^token bo-ci \(viewer\) for bo@example\.com, expires \S+\ntoken \(shown once\): tly_\S+\n$/,
    );
    expect(await db().apiToken.findUniqueOrThrow({ where: { name: "bo-ci" } })).toMatchObject({
      role: "viewer",
      createdBy: "bo@example.com",
      revokedAt: null,
    });
    expect((await user(["token", "bo@example.com", "--name", "bo-admin", "--role", "admin"])).out).toMatch(
      /A token's role cannot be higher than yours \(viewer\)/,
    );
    expect(await user(["disable", "bo@example.com"])).toEqual({
      code: 0,
      out: "bo@example.com is disabled: its sessions and tokens no longer work\n",
    });
    expect((await db().user.findUniqueOrThrow({ where: { email: "bo@example.com" } })).disabledAt).not.toBeNull();

    const audit = await db().auditLog.findMany({
      where: { target: { in: ["ana@example.com", "bo@example.com", "token:bo-ci"] } },
      orderBy: { id: "asc" },
    });
    expect(audit.map((a) => [a.actor, a.action, a.target])).toEqual([
      ["system", "users.create", "ana@example.com"],
      ["system", "users.create", "bo@example.com"],
      ["system", "users.reset_password", "bo@example.com"],
      ["system", "tokens.create", "token:bo-ci"],
      ["system", "users.disable", "bo@example.com"],
    ]);
    expect(JSON.parse(audit[0].detail ?? "{}")).toMatchObject({ via: "cli", role: "operator" });
  }, 60_000);

  it("says what is wrong: 2 with the usage for bad usage, 1 with the reason for a failure; nothing changes", async () => {
    const before = await db().user.count();
    const cases: [string[], number, RegExp][] = [
      [[], 2, /user: name a command\nusage:\n {2}npm run user -- list/],
      [["remove", "x@example.com"], 2, /unknown command "remove"/],
      [["add"], 2, /add: name the account by its e-mail/],
      [
        ["add", "cy@example.com", "--name", "Cy", "--role", "owner"],
        2,
        /--role must be one of viewer, operator, admin/,
      ],
      [["add", "cy@example.com", "--role", "viewer"], 2, /add: --name is required/],
      [["add", "not-an-email", "--name", "Cy", "--role", "viewer"], 2, /email: email must look like name@example.com/],
      [
        ["add", "cy@example.com", "--name", "Cy", "--role", "viewer", "--password", "on the command line"],
        2,
        /Unknown option '--password'/,
      ],
      [
        ["add", "ana@example.com", "--name", "Ana", "--role", "viewer"],
        1,
        /user: A user with the e-mail ana@example.com exists already/,
      ],
      [["disable", "nobody@example.com"], 1, /user: No user nobody@example.com/],
      [["reset-password", "ana@example.com", "--password-stdin"], 2, /standard input was empty/],
      [["token", "ana@example.com", "--role", "viewer"], 2, /token: name: name is required/],
      [
        ["token", "ana@example.com", "--name", "x", "--role", "viewer", "--expires-days", "soon"],
        2,
        /expiresInDays: expiresInDays must be a number of days/,
      ],
    ];
    for (const [args, code, message] of cases) {
      const r = await user(args);
      expect(r.code, args.join(" ")).toBe(code);
      expect(r.out, args.join(" ")).toMatch(message);
    }
    expect(await db().user.count()).toBe(before);
  }, 60_000);

  it("as a process: exit 0 with the result on standard output, 2 with the usage and 1 with the reason on standard error", async () => {
    const added = await userProcess(
      ["add", "dee@example.com", "--name", "Dee", "--role", "viewer", "--password-stdin"],
      "a long passphrase here\n",
    );
    expect(added).toEqual({
      code: 0,
      out: "added dee@example.com (viewer)\n",
      stdout: "added dee@example.com (viewer)\n",
    });
    const usage = await userProcess(["remove", "dee@example.com"]);
    expect(usage).toMatchObject({ code: 2, stdout: "" });
    expect(usage.out).toMatch(/^user: unknown command "remove"\nusage:/);
    expect(await userProcess(["disable", "nobody@example.com"])).toEqual({
      code: 1,
      out: "user: No user nobody@example.com\n",
      stdout: "",
    });
  }, 120_000);
});
