import "server-only";
import { Forbidden } from "../errors";
import { roleAtLeast, type Me, type Role } from "./roles";

// Who is making a request: a signed-in person (a session) or an API token (personal, or the
// TALLY_API_TOKEN of the configuration, which acts as an admin). Audit entries name them by actorOf().

export type Principal =
  | { kind: "user"; userId: string; email: string; name: string; role: Role; sessionId: string }
  | { kind: "token"; tokenId: string | null; name: string; role: Role; userId: string | null };

/** The actor written to the audit log: the user's e-mail, or `token:{name}`. */
export function actorOf(p: Principal): string {
  return p.kind === "user" ? p.email : `token:${p.name}`;
}

/** The actor for work nobody asked for at that moment (schedules, demo mode, start-up). */
export const SYSTEM_ACTOR = "system";

/** The name of the configuration's TALLY_API_TOKEN in audit entries (`token:env`). */
export const ENV_TOKEN_NAME = "env";

export function requireRole(p: Principal, needed: Role, what = "this action"): void {
  if (!roleAtLeast(p.role, needed)) {
    throw new Forbidden(
      `${what} needs the ${needed} role; ${actorOf(p)} is ${/^[aeiou]/.test(p.role) ? "an" : "a"} ${p.role}`,
    );
  }
}

export function meOf(p: Principal): Me {
  return p.kind === "user"
    ? { email: p.email, name: p.name, role: p.role, kind: "user" }
    : { email: null, name: `token:${p.name}`, role: p.role, kind: "token" };
}
