import "server-only";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { configOrExit } from "../config";
import { dbReady } from "../db";
import { TallyError } from "../errors";
import { audit } from "../audit";
import { osUser, UsageError } from "../cli";
import { isRole, ROLES, type Role } from "./roles";
import { createToken } from "./tokens";
import { createTokenSchema } from "./tokens-contracts";
import { createUser, disableUser, enableUser, findUser, listUsers, resetPassword } from "./users";
import { createUserSchema } from "./users-contracts";

// npm run user -- add|list|disable|enable|reset-password|token … — accounts for people without a browser.
// Passwords never go on the command line (shell history, `ps`): they are read from standard input
// with --password-stdin, or generated and printed once. `userCli` returns the exit code (0 done,
// 1 failed with the reason, 2 bad usage with the usage) and leaves the process and the database
// connections to its caller (scripts/user.ts), so the tests run it in-process.

export type CliIo = { stdin: AsyncIterable<unknown>; out(line: string): void; err(text: string): void };

const USAGE = `usage:
  npm run user -- list
  npm run user -- add EMAIL --name "Full Name" --role ${ROLES.join("|")} [--password-stdin]
  npm run user -- disable EMAIL          (ends the person's sessions and revokes their tokens)
  npm run user -- enable EMAIL
  npm run user -- reset-password EMAIL [--password-stdin]   (ends the person's sessions, revokes their tokens)
  npm run user -- token EMAIL --name TOKEN_NAME --role ${ROLES.join("|")} [--expires-days N]
                                         (a personal API token of that person, printed once)
Without --password-stdin a password is generated and printed once.
Example: echo 'a long passphrase' | npm run user -- add ana@example.com --name "Ana" --role operator --password-stdin`;

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: "string" },
        role: { type: "string" },
        "expires-days": { type: "string" },
        "password-stdin": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

async function readPassword(
  io: CliIo,
  fromStdin: boolean | undefined,
): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: randomBytes(15).toString("base64url"), generated: true };
  let text = "";
  for await (const chunk of io.stdin) text += String(chunk);
  const password = text.replace(/\r?\n$/, "");
  if (!password) throw new UsageError("--password-stdin: standard input was empty");
  return { password, generated: false };
}

function needEmail(positionals: string[]): string {
  const email = positionals[1];
  if (!email) throw new UsageError(`${positionals[0]}: name the account by its e-mail`);
  return email;
}

// Whoever runs this has the database in hand: the audit log names the system, and the OS account.
const SYSTEM = { actor: "system" } as const;
const via = () => ({ via: "cli", osUser: osUser() });

async function main(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv);
  const command = positionals[0];
  if (values.help || !command) throw new UsageError(values.help ? "" : "name a command");
  if (!["list", "add", "disable", "enable", "reset-password", "token"].includes(command))
    throw new UsageError(`unknown command "${command}"`);
  configOrExit();
  await dbReady();
  if (command === "list") {
    const users = await listUsers();
    if (users.length === 0) io.out("no users yet (the first admin is made at start-up from TALLY_OPERATOR_PASSWORD)");
    for (const u of users)
      io.out(`${u.email.padEnd(32)} ${u.role.padEnd(9)} ${u.disabled ? "disabled" : "active  "} ${u.name}`);
    return 0;
  }
  const email = needEmail(positionals);
  if (command === "add") {
    if (!values.name) throw new UsageError("add: --name is required");
    if (!values.role || !isRole(values.role)) throw new UsageError(`add: --role must be one of ${ROLES.join(", ")}`);
    const { password, generated } = await readPassword(io, values["password-stdin"]);
    const input = createUserSchema.safeParse({ email, name: values.name, role: values.role satisfies Role, password });
    if (!input.success)
      throw new UsageError(`add: ${input.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    const u = await createUser(input.data);
    await audit({ ...SYSTEM, action: "users.create", target: u.email, detail: { role: u.role, ...via() } });
    io.out(`added ${u.email} (${u.role})`);
    if (generated) io.out(`password (shown once): ${password}`);
    return 0;
  }
  if (command === "token") {
    const expires = values["expires-days"];
    const input = createTokenSchema.safeParse({
      name: values.name,
      role: values.role,
      ...(expires === undefined ? {} : { expiresInDays: Number(expires) }),
    });
    if (!input.success)
      throw new UsageError(
        `token: ${input.error.issues.map((i) => `${i.path.join(".") || "token"}: ${i.message}`).join("; ")}`,
      );
    const u = await findUser(email);
    if (u.disabledAt) throw new Error(`${u.email} is disabled`);
    if (!isRole(u.role)) throw new Error(`${u.email} has an unknown role`);
    const owner = { kind: "user", userId: u.id, email: u.email, name: u.name, role: u.role, sessionId: "" } as const;
    const t = await createToken(owner, input.data);
    await audit({
      ...SYSTEM,
      action: "tokens.create",
      target: `token:${t.name}`,
      detail: { owner: u.email, role: t.role, ...via() },
    });
    io.out(`token ${t.name} (${t.role}) for ${u.email}${t.expiresAt ? `, expires ${t.expiresAt}` : ""}`);
    io.out(`token (shown once): ${t.token}`);
    return 0;
  }
  if (command === "disable" || command === "enable") {
    const u = command === "disable" ? await disableUser(email) : await enableUser(email);
    await audit({ ...SYSTEM, action: `users.${command}`, target: u.email, detail: via() });
    io.out(`${u.email} is ${u.disabled ? "disabled: its sessions and tokens no longer work" : "enabled"}`);
    return 0;
  }
  const { password, generated } = await readPassword(io, values["password-stdin"]);
  const u = await resetPassword(email, password);
  await audit({
    ...SYSTEM,
    action: "users.reset_password",
    target: u.email,
    detail: { ...via(), sessionsEnded: u.sessionsEnded, tokensRevoked: u.tokensRevoked },
  });
  io.out(
    `password of ${u.email} reset; ${u.sessionsEnded} session(s) ended, ${u.tokensRevoked} personal API token(s) revoked`,
  );
  if (generated) io.out(`new password (shown once): ${password}`);
  return 0;
}

export async function userCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await main(argv, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message ? `user: ${err.message}\n` : ""}${USAGE}\n`);
      return 2;
    }
    io.err(`user: ${err instanceof TallyError || err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
