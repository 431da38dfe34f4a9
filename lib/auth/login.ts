import "server-only";
import { audit } from "../operations/audit";
import { NotSignedIn, TooManyRequests } from "../errors";
import { createSessionToken, passwordMatches } from "./session";
import { addressKey, clearLoginFailures, loginBlockedFor, recordLoginFailure } from "./throttle";

/** Checks the operator password (throttled per client) and returns a new session token. */
export async function login(password: string, client: string) {
  const key = addressKey(client);
  const wait = await loginBlockedFor(key);
  if (wait > 0) {
    throw new TooManyRequests(`Too many failed sign-ins; try again in ${wait} s`, wait);
  }
  if (!passwordMatches(password)) {
    await recordLoginFailure(key);
    await audit({ actor: `client:${client}`, action: "login", ok: false });
    throw new NotSignedIn("Wrong password");
  }
  await clearLoginFailures(key);
  await audit({ actor: "operator", action: "login", detail: { client } });
  return createSessionToken("operator");
}
