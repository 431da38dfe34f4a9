import "server-only";
import { audited } from "../audit";
import { actorOf, type Principal } from "./principal";
import type { Role } from "./roles";
import { revokeSessionById, revokeSessionsOf } from "./sessions";
import { createToken, revokeToken, revokeTokensOf } from "./tokens";
import type { CreateToken } from "./tokens-contracts";
import { createUser, disableUser, findUser, resetPassword, setRole } from "./users";
import type { CreateUser } from "./users-contracts";

// The audited account actions behind the routes (the CLI calls lib/auth directly and audits as `cli`).

export function createUserAction(p: Principal, input: CreateUser) {
  return audited({ actor: actorOf(p), action: "users.create", target: input.email, detail: { role: input.role } }, () =>
    createUser(input),
  );
}

export async function disableUserAction(p: Principal, id: string) {
  const u = await findUser(id);
  return audited({ actor: actorOf(p), action: "users.disable", target: u.email }, () => disableUser(u.id));
}

export async function setRoleAction(p: Principal, id: string, role: Role) {
  const u = await findUser(id);
  return audited({ actor: actorOf(p), action: "users.role", target: u.email, detail: { from: u.role, to: role } }, () =>
    setRole(u.id, role),
  );
}

/** An admin sets someone's password: their sessions end and their personal tokens are revoked. */
export async function resetPasswordAction(p: Principal, id: string, password: string) {
  const u = await findUser(id);
  return audited(
    { actor: actorOf(p), action: "users.reset_password", target: u.email },
    () => resetPassword(u.id, password),
    (r) => ({ sessionsEnded: r.sessionsEnded, tokensRevoked: r.tokensRevoked }),
  );
}

export function createTokenAction(p: Principal, input: CreateToken) {
  return audited(
    {
      actor: actorOf(p),
      action: "tokens.create",
      target: `token:${input.name}`,
      detail: { role: input.role, expiresInDays: input.expiresInDays ?? null },
    },
    () => createToken(p, input),
  );
}

export function revokeTokenAction(p: Principal, id: string) {
  return audited({ actor: actorOf(p), action: "tokens.revoke", target: id }, () => revokeToken(p, id));
}

/** Ends the caller's own session (logout). */
export async function logoutAction(p: Principal) {
  return audited({ actor: actorOf(p), action: "logout" }, async () => {
    if (p.kind === "user") await revokeSessionById(p.sessionId);
  });
}

/** Sign out everywhere: every session of the caller, this one included; with `tokens`, their personal API tokens too. */
export async function revokeAllAction(p: Principal, opts: { revokeTokens?: boolean } = {}) {
  return audited(
    { actor: actorOf(p), action: "sessions.revoke_all", detail: { revokeTokens: opts.revokeTokens === true } },
    async () => {
      const userId = p.userId;
      const revoked = p.kind === "user" ? await revokeSessionsOf(p.userId) : 0;
      const tokensRevoked = opts.revokeTokens && userId ? await revokeTokensOf(userId) : 0;
      return { revoked, tokensRevoked };
    },
    (r) => r,
  );
}
