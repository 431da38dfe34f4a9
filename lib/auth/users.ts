import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "../db";
import { BadRequest, Conflict, NotFound } from "../errors";
import { hashPassword } from "./password";
import { isUniqueViolation } from "./unique";
import { isRole, type Role } from "./roles";
import { revokeSessionsOf } from "./sessions";
import { revokeTokensOf } from "./tokens";
import { newPasswordSchema, type CreateUser, type UserRow } from "./users-contracts";

// People who sign in. Disabling a user, changing their password or their role ends their sessions
// (and disabling revokes their tokens) at once. The last enabled admin can be neither disabled nor
// demoted, so nobody is locked out of user management.

export const BOOTSTRAP_EMAIL = "admin@localhost";

function toRow(u: {
  id: string;
  email: string;
  name: string;
  role: string;
  disabledAt: Date | null;
  createdAt: Date;
}): UserRow {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: isRole(u.role) ? u.role : "viewer",
    disabled: u.disabledAt !== null,
    createdAt: u.createdAt.toISOString(),
  };
}

export async function createUser(input: CreateUser, opts: { bootstrap?: boolean } = {}): Promise<UserRow> {
  try {
    const u = await db().user.create({
      data: {
        id: randomUUID(),
        email: input.email,
        name: input.name,
        role: input.role,
        passwordHash: await hashPassword(input.password),
        bootstrap: opts.bootstrap ?? false,
      },
    });
    return toRow(u);
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`A user with the e-mail ${input.email} exists already`);
    throw err;
  }
}

export async function listUsers(): Promise<UserRow[]> {
  const rows = await db().user.findMany({ orderBy: [{ createdAt: "asc" }, { email: "asc" }], take: 1000 });
  return rows.map(toRow);
}

export async function findUser(idOrEmail: string) {
  const u = await db().user.findFirst({
    where: { OR: [{ id: idOrEmail }, { email: idOrEmail.trim().toLowerCase() }] },
  });
  if (!u) throw new NotFound(`No user ${idOrEmail}`);
  return u;
}

async function refuseLastAdmin(userId: string, what: string) {
  const admins = await db().user.findMany({
    where: { role: "admin", disabledAt: null },
    select: { id: true },
    take: 2,
  });
  if (admins.length === 1 && admins[0].id === userId)
    throw new Conflict(`Refused to ${what} the last enabled admin; make another admin first`);
}

export async function disableUser(idOrEmail: string): Promise<UserRow> {
  const u = await findUser(idOrEmail);
  if (u.disabledAt) return toRow(u);
  if (u.role === "admin") await refuseLastAdmin(u.id, "disable");
  const updated = await db().user.update({ where: { id: u.id }, data: { disabledAt: new Date() } });
  await revokeSessionsOf(u.id);
  await revokeTokensOf(u.id);
  return toRow(updated);
}

export async function enableUser(idOrEmail: string): Promise<UserRow> {
  const u = await findUser(idOrEmail);
  return toRow(await db().user.update({ where: { id: u.id }, data: { disabledAt: null } }));
}

/** A role change applies on the person's next request (sessions read the role from the user row). */
export async function setRole(idOrEmail: string, role: Role): Promise<UserRow> {
  const u = await findUser(idOrEmail);
  if (u.role === "admin" && role !== "admin" && !u.disabledAt) await refuseLastAdmin(u.id, "demote");
  return toRow(await db().user.update({ where: { id: u.id }, data: { role } }));
}

/**
 * Sets a new password, ends every session of that person and revokes their personal API tokens (a reset
 * means the old credentials may be in someone else's hands; a token made with them is one too).
 */
export async function resetPassword(
  idOrEmail: string,
  password: string,
): Promise<UserRow & { sessionsEnded: number; tokensRevoked: number }> {
  const parsed = newPasswordSchema.safeParse(password);
  if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? "bad password");
  const u = await findUser(idOrEmail);
  const updated = await db().user.update({
    where: { id: u.id },
    data: { passwordHash: await hashPassword(password), bootstrap: false },
  });
  const sessionsEnded = await revokeSessionsOf(u.id);
  const tokensRevoked = await revokeTokensOf(u.id);
  return { ...toRow(updated), sessionsEnded, tokensRevoked };
}
