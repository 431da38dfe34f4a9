import "server-only";
import { db } from "../db";
import { NotSignedIn, TooManyRequests } from "../errors";
import { audit } from "../audit";
import { burnVerifyTime, passwordMatches } from "./password";
import { createSession } from "./sessions";
import { getConfig } from "../config";
import { accountKey, addressKey, clearLoginFailures, pairKey, takeLoginAttempt, waitText } from "./throttle";
import { BOOTSTRAP_EMAIL } from "./users";

// Sign-in: e-mail and password, or the password alone for the first admin (admin@localhost), which
// keeps today's scripts and demo mode working. Throttled per client address and per account, in the
// database, so every server counts the same failures. One answer for every failure, so the answer
// does not tell which accounts exist.

export type Client = { address: string; userAgent: string | null };

export async function login(input: { email?: string; password: string }, client: Client) {
  const email = input.email ?? BOOTSTRAP_EMAIL;
  const keys = [pairKey(client.address, email), addressKey(client.address), accountKey(email)];
  // Each attempt is counted before it is evaluated (atomically), so parallel guesses cannot pass together.
  const taken: { wait: number; left: number }[] = [];
  for (const k of keys) taken.push(await takeLoginAttempt(k));
  const wait = Math.max(...taken.map((t) => t.wait));
  if (wait > 0)
    throw new TooManyRequests(
      `Too many failed sign-ins: signing in is paused for ${waitText(wait)} (until ${new Date(Date.now() + wait * 1000).toISOString().slice(11, 16)} UTC). Other accounts, and other addresses, are not affected.`,
      wait,
    );
  const left = Math.min(...taken.map((t) => t.left));
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
    const wrong = input.email ? "Wrong e-mail or password" : "Wrong password";
    // A warning before the pause, not after it.
    const pause = waitText(getConfig().TALLY_LOGIN_WINDOW_SECONDS);
    throw new NotSignedIn(
      left === 0
        ? `${wrong}. That was the last try: signing in is now paused for ${pause}.`
        : left <= 2
          ? `${wrong}. ${left} ${left === 1 ? "try" : "tries"} left before signing in is paused for ${pause}.`
          : wrong,
    );
  }
  for (const k of keys) await clearLoginFailures(k);
  const session = await createSession(user.id, client);
  await audit({ actor: user.email, action: "login", detail: { client: client.address } });
  return session;
}
