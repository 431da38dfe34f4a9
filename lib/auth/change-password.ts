import "server-only";
import { db, transaction } from "../db";
import { BadRequest, Forbidden, TooManyRequests } from "../errors";
import { audit } from "../audit";
import { hashPassword, passwordMatches } from "./password";
import type { Principal } from "./principal";
import { accountKey, clearLoginFailures, loginBlockedFor, recordLoginFailure, waitText } from "./throttle";
import type { ChangePassword } from "./users-contracts";

// A person changes their own password: the current one is checked (a wrong one counts against the
// account's sign-in throttle), and every other session of theirs and every personal API token of theirs
// end at once, as an admin's reset does (a token made by whoever knew the old password is their
// credential too); this session stays. The hash, the sessions and the tokens change in one transaction.

export async function changeOwnPassword(
  p: Principal,
  input: ChangePassword,
): Promise<{ endedSessions: number; revokedTokens: number }> {
  if (p.kind !== "user") throw new Forbidden("A token has no password; sign in to change yours");
  const key = accountKey(p.email);
  const wait = await loginBlockedFor(key);
  if (wait > 0) throw new TooManyRequests(`Too many failed attempts: try again in ${waitText(wait)}`, wait);
  const user = await db().user.findUniqueOrThrow({ where: { id: p.userId }, omit: { passwordHash: false } });
  if (!(await passwordMatches(user.passwordHash, input.currentPassword))) {
    await recordLoginFailure(key);
    await audit({
      actor: p.email,
      action: "users.change_password",
      ok: false,
      detail: { reason: "wrong current password" },
    });
    throw new BadRequest("The current password is wrong");
  }
  if (input.currentPassword === input.newPassword) throw new BadRequest("The new password is the current one");
  await clearLoginFailures(key);
  const passwordHash = await hashPassword(input.newPassword);
  const now = new Date();
  const [sessions, tokens] = await transaction(async (tx) => {
    await tx.user.update({ where: { id: p.userId }, data: { passwordHash, bootstrap: false } });
    return Promise.all([
      tx.session.updateMany({
        where: { userId: p.userId, revokedAt: null, id: { not: p.sessionId } },
        data: { revokedAt: now },
      }),
      tx.apiToken.updateMany({ where: { userId: p.userId, revokedAt: null }, data: { revokedAt: now } }),
    ]);
  });
  const result = { endedSessions: sessions.count, revokedTokens: tokens.count };
  await audit({ actor: p.email, action: "users.change_password", detail: result });
  return result;
}
