import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { Forbidden, NotFound } from "../errors";
import { audit } from "../audit";
import { actorOf, type Principal } from "./principal";
import { isRole } from "./roles";
import { newSessionSecret, sessionIdOf } from "./session";
import type { SessionRow } from "./sessions-contracts";

// Server-side sessions: one row per sign-in. Every request reads its row joined with the user (one
// primary-key read), so revoking the session, disabling the user or changing their role takes effect
// on the next request. Last seen is written at most once a minute per session.

const TOUCH_EVERY_MS = 60_000;

export async function createSession(userId: string, client: { address: string; userAgent: string | null }) {
  const { cookie, id } = newSessionSecret();
  const expires = new Date(Date.now() + getConfig().TALLY_SESSION_TTL_HOURS * 3600_000);
  await db().session.create({
    data: {
      id,
      userId,
      clientAddress: client.address,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      expiresAt: expires,
    },
  });
  return { cookie, expires, sessionId: id };
}

type Joined = {
  id: string;
  userId: string;
  expiresAt: unknown;
  lastSeenAt: unknown;
  email: string;
  name: string;
  role: string;
  disabledAt: unknown;
};

/** A value the driver returned for a DateTime column, as a Date (SQLite and PostgreSQL differ). */
export function asDate(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v === "number" || typeof v === "bigint") return new Date(Number(v));
  if (typeof v === "string" && /^\d+$/.test(v)) return new Date(Number(v));
  return new Date(String(v));
}

/** The signed-in person for a session cookie, or null when it is unknown, revoked, expired or disabled. */
export async function resolveSession(cookie: string, now = Date.now()): Promise<Principal | null> {
  const id = sessionIdOf(cookie);
  const rows = await db().$queryRaw<Joined[]>`
    SELECT s."id", s."userId", s."expiresAt", s."lastSeenAt", u."email", u."name", u."role", u."disabledAt"
    FROM "Session" s JOIN "User" u ON u."id" = s."userId"
    WHERE s."id" = ${id} AND s."revokedAt" IS NULL`;
  const r = rows[0];
  if (!r || r.disabledAt !== null || asDate(r.expiresAt).getTime() <= now || !isRole(r.role)) return null;
  if (now - asDate(r.lastSeenAt).getTime() > TOUCH_EVERY_MS) {
    await db().session.updateMany({
      where: { id, lastSeenAt: { lt: new Date(now - TOUCH_EVERY_MS) } },
      data: { lastSeenAt: new Date(now) },
    });
  }
  return { kind: "user", userId: r.userId, email: r.email, name: r.name, role: r.role, sessionId: r.id };
}

export async function revokeSessionById(id: string): Promise<void> {
  await db().session.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Ends every session of a user at once (sign out everywhere, password change, disabling). */
export async function revokeSessionsOf(userId: string): Promise<number> {
  const r = await db().session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
  return r.count;
}

/** Active sessions: the caller's own, or everyone's for an admin. */
export async function listSessions(p: Principal): Promise<SessionRow[]> {
  const all = p.role === "admin";
  if (!all && p.kind !== "user") return [];
  const rows = await db().session.findMany({
    where: {
      revokedAt: null,
      expiresAt: { gt: new Date() },
      ...(all ? {} : { userId: p.kind === "user" ? p.userId : "" }),
    },
    include: { user: { select: { email: true, name: true } } },
    orderBy: [{ lastSeenAt: "desc" }],
    take: 200,
  });
  return rows.map((s) => ({
    id: s.id.slice(0, 16),
    email: s.user.email,
    name: s.user.name,
    clientAddress: s.clientAddress,
    userAgent: s.userAgent,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    current: p.kind === "user" && p.sessionId === s.id,
  }));
}

/** Revokes one session named by the short id the list shows: the owner's own, or any for an admin. */
export async function revokeSession(p: Principal, shortId: string): Promise<void> {
  const s = await db().session.findFirst({
    where: { id: { startsWith: shortId }, revokedAt: null },
    select: { id: true, userId: true, user: { select: { email: true } } },
  });
  if (!s) throw new NotFound(`No active session ${shortId}`);
  if (p.role !== "admin" && !(p.kind === "user" && p.userId === s.userId))
    throw new Forbidden("Only an admin may end another person's session");
  await revokeSessionById(s.id);
  await audit({ actor: actorOf(p), action: "session.revoke", target: s.user.email, detail: { session: shortId } });
}
