import "server-only";
// lib/auth's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export {
  createTokenAction,
  createUserAction,
  disableUserAction,
  logoutAction,
  resetPasswordAction,
  revokeAllAction,
  revokeTokenAction,
  setRoleAction,
} from "./actions";
export { ensureBootstrapAdmin } from "./bootstrap";
export { changeOwnPassword } from "./change-password";
export { requireOperator } from "./current";
export { login } from "./login";
export { actorOf, meOf, type Principal, requireRole } from "./principal";
export { principalOf } from "./resolve";
export { safeNextPath } from "./safe-next";
export { clearedSessionCookie, SESSION_COOKIE, sessionCookieOptions } from "./session";
export { listSessions, revokeSession } from "./sessions";
export { listTokens } from "./tokens";
export { userCli } from "./user-cli";
export { listUsers } from "./users";
