import "server-only";
import type { TallyConfig } from "../config";
import { db } from "../db";
import { Conflict } from "../errors";
import { log } from "../log";
import { audit } from "../audit";
import { hashPassword, passwordMatches } from "./password";
import { SYSTEM_ACTOR } from "./principal";
import { isUniqueViolation } from "./unique";
import { BOOTSTRAP_EMAIL, createUser } from "./users";

// No lock-out on a new database: with no users at all, TALLY_OPERATOR_PASSWORD (or demo mode's
// generated password) makes the first admin, admin@localhost. Until someone sets that account's
// password themselves (reset-password), it follows the environment: a new generated password at each
// demo start, or a changed TALLY_OPERATOR_PASSWORD, is its password after the next start.

export async function ensureBootstrapAdmin(
  config: Pick<TallyConfig, "operatorPassword">,
): Promise<"created" | "updated" | "unchanged"> {
  const password = config.operatorPassword;
  if ((await db().user.count()) === 0) {
    try {
      await createUser({ email: BOOTSTRAP_EMAIL, name: "Admin", role: "admin", password }, { bootstrap: true });
      await audit({ actor: SYSTEM_ACTOR, action: "users.bootstrap", target: BOOTSTRAP_EMAIL });
      log.info("first admin created", { email: BOOTSTRAP_EMAIL });
      return "created";
    } catch (err) {
      // Another server starting on the same database made it first (createUser reports the
      // unique violation as a Conflict).
      if (!(err instanceof Conflict) && !isUniqueViolation(err)) throw err;
    }
  }
  const admin = await db().user.findUnique({ where: { email: BOOTSTRAP_EMAIL }, omit: { passwordHash: false } });
  if (!admin?.bootstrap || (await passwordMatches(admin.passwordHash, password))) return "unchanged";
  await db().user.update({ where: { id: admin.id }, data: { passwordHash: await hashPassword(password) } });
  return "updated";
}
