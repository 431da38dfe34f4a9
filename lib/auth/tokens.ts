import "server-only";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { getConfig } from "../config";
import { db } from "../db";
import { Conflict, Forbidden, NotFound } from "../errors";
import { ENV_TOKEN_NAME, type Principal } from "./principal";
import { isRole, lowerRole, roleAtLeast } from "./roles";
import { asDate } from "./sessions";
import { secretEquals } from "./session";
import type { CreateToken, TokenRow } from "./tokens-contracts";
import { isUniqueViolation } from "./unique";

// Personal API tokens: `tly_` + 32 random bytes, shown once. Only their SHA-256 is stored (a token
// is random, so a slow hash adds nothing and the lookup stays one unique-index read). A token acts
// with its own role, never above its owner's current role; a disabled owner's tokens stop working.
// TALLY_API_TOKEN, when set, is an admin token named `env` (audit: `token:env`).

const PREFIX = "tly_";
const TOUCH_EVERY_MS = 60_000;

export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createToken(
  p: Principal,
  input: CreateToken,
): Promise<{ id: string; token: string; name: string; role: string; expiresAt: string | null }> {
  if (p.kind !== "user") throw new Forbidden("Tokens are made by a signed-in person (a token cannot make tokens)");
  if (!roleAtLeast(p.role, input.role)) throw new Forbidden(`A token's role cannot be higher than yours (${p.role})`);
  if (input.name === ENV_TOKEN_NAME) throw new Conflict(`The name "${ENV_TOKEN_NAME}" is reserved for TALLY_API_TOKEN`);
  const token = PREFIX + randomBytes(32).toString("base64url");
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
  const id = randomUUID();
  try {
    await db().apiToken.create({
      data: {
        id,
        name: input.name,
        role: input.role,
        hash: tokenHash(token),
        last4: token.slice(-4),
        userId: p.userId,
        createdBy: p.email,
        expiresAt,
      },
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new Conflict(
        `A token named ${input.name} exists already (names stay taken after revocation, so the audit log stays unambiguous)`,
      );
    throw err;
  }
  return { id, token, name: input.name, role: input.role, expiresAt: expiresAt?.toISOString() ?? null };
}

type Joined = {
  id: string;
  name: string;
  role: string;
  userId: string | null;
  expiresAt: unknown;
  lastUsedAt: unknown;
  ownerRole: string | null;
  ownerDisabledAt: unknown;
};

/** The principal for a bearer token, or null (unknown, revoked, expired, owner disabled). */
export async function resolveToken(presented: string, now = Date.now()): Promise<Principal | null> {
  const env = getConfig().TALLY_API_TOKEN;
  if (env && secretEquals(presented, env))
    return { kind: "token", tokenId: null, name: ENV_TOKEN_NAME, role: "admin", userId: null };
  if (!presented.startsWith(PREFIX)) return null;
  const hash = tokenHash(presented);
  const rows = await db().$queryRaw<Joined[]>`
    SELECT t."id", t."name", t."role", t."userId", t."expiresAt", t."lastUsedAt", u."role" AS "ownerRole", u."disabledAt" AS "ownerDisabledAt"
    FROM "ApiToken" t LEFT JOIN "User" u ON u."id" = t."userId"
    WHERE t."hash" = ${hash} AND t."revokedAt" IS NULL`;
  const r = rows[0];
  if (!r || !isRole(r.role)) return null;
  if (r.expiresAt !== null && asDate(r.expiresAt).getTime() <= now) return null;
  if (r.userId !== null && (r.ownerDisabledAt !== null || !isRole(r.ownerRole))) return null;
  if (r.lastUsedAt === null || now - asDate(r.lastUsedAt).getTime() > TOUCH_EVERY_MS) {
    await db().apiToken.update({ where: { id: r.id }, data: { lastUsedAt: new Date(now) } });
  }
  const role = isRole(r.ownerRole) ? lowerRole(r.role, r.ownerRole) : r.role;
  return { kind: "token", tokenId: r.id, name: r.name, role, userId: r.userId };
}

/** The caller's own tokens; an admin sees everyone's. */
export async function listTokens(p: Principal): Promise<TokenRow[]> {
  const all = p.role === "admin";
  if (!all && !p.userId) return [];
  const rows = await db().apiToken.findMany({
    where: all ? {} : { userId: p.userId },
    include: { user: { select: { email: true } } },
    orderBy: [{ createdAt: "desc" }],
    take: 500,
  });
  const now = Date.now();
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    role: isRole(t.role) ? t.role : "viewer",
    last4: t.last4,
    owner: t.user?.email ?? null,
    createdBy: t.createdBy,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt?.toISOString() ?? null,
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
    state: t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt.getTime() <= now ? "expired" : "active",
  }));
}

export async function revokeToken(p: Principal, id: string): Promise<{ id: string; name: string }> {
  const t = await db().apiToken.findUnique({
    where: { id },
    select: { id: true, name: true, userId: true, revokedAt: true },
  });
  if (!t) throw new NotFound(`No token ${id}`);
  if (p.role !== "admin" && !(p.userId && p.userId === t.userId))
    throw new Forbidden("Only an admin may revoke another person's token");
  if (!t.revokedAt) await db().apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
  return { id: t.id, name: t.name };
}

export async function revokeTokensOf(userId: string): Promise<number> {
  return (await db().apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } }))
    .count;
}
