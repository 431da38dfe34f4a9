import "server-only";
import { db } from "../db";
import { NotSignedIn, TooManyRequests } from "../errors";
import { audit } from "../audit";
import { burnVerifyTime, passwordMatches } from "./password";
import { createSession } from "./sessions";
import { accountKey, addressKey, clearLoginFailures, takeLoginAttempt } from "./throttle";
import { BOOTSTRAP_EMAIL } from "./users";

// Sign-in: e-mail and password, or the password alone for the first admin (admin@localhost), which
// keeps today's scripts and demo mode working. Throttled per client address and per account, in the
// database, so every server counts the same failures. One answer for every failure, so the answer
// does not tell which accounts exist.

export type Client = { address: string; userAgent: string | null };

export async function login(input: { email?: string; password: string }, client: Client) {
  const email = input.email ?? BOOTSTRAP_EMAIL;
  const keys = [addressKey(client.address), accountKey(email)];
  // Each attempt is counted before it is evaluated (atomically), so parallel guesses cannot pass together.
  const waits: number[] = [];
  for (const k of keys) waits.push(await takeLoginAttempt(k));
  const wait = Math.max(...waits);
  if (wait > 0) throw new TooManyRequests(`Too many failed sign-ins; try again in ${wait} s`, wait);
  const user = await db().user.findUnique({ where: { email }, omit: { passwordHash: false } });
  const ok = user
    ? await passwordMatches(user.passwordHash, input.password)
    : (await burnVerifyTime(input.password), false);
  if (!user || !ok || user.disabledAt) {
    await audit({
      actor: email,
      action: "login",
      ok: false,
      detail: { client: client.address, reason: !user ? "no such user" : !ok ? "wrong password" : "disabled" },
    });
    throw new NotSignedIn(input.email ? "Wrong e-mail or password" : "Wrong password");
  }
  for (const k of keys) await clearLoginFailures(k);
  const session = await createSession(user.id, client);
  await audit({ actor: user.email, action: "login", detail: { client: client.address } });
  return session;
}
