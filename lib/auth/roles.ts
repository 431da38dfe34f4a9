import { z } from "zod";

// Roles, lowest first: each one may do everything the ones before it may. Safe for the browser
// (the UI hides what a role cannot do; the server checks it again on every request).

export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` });

export const ROLE_SUMMARY: Record<Role, string> = {
  viewer: "reads everything but secrets",
  operator: "plus replay, reconcile, dead-letter actions, submit jobs, replay outbound deliveries",
  admin: "plus secrets, subscriptions, destinations, simulator knobs, users and tokens",
};

/** Whether `role` is `needed` or above. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/**
 * Whether `role` is shown Tally's insides in an error (issue 47 item 6): the body store's paths, bucket,
 * prefix and endpoint, the system's error text, the address a refused destination resolved to. Admins
 * only; viewers and operators get the error's code and a plain sentence (docs/operations/security.md).
 */
export function seesInternalDetail(role: Role): boolean {
  return role === "admin";
}

/** The lower of two roles (a token never acts above the person who made it). */
export function lowerRole(a: Role, b: Role): Role {
  return ROLES.indexOf(a) <= ROLES.indexOf(b) ? a : b;
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** What the browser knows about who is signed in (GET /api/auth/me). */
export const meSchema = z.object({
  email: z.string().nullable(),
  name: z.string(),
  role: roleSchema,
  kind: z.enum(["user", "token"]),
});
export type Me = z.infer<typeof meSchema>;
