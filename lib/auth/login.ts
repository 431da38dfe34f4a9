import "server-only";
import { audit } from "../operations/audit";
import { NotSignedIn, TooManyRequests } from "../errors";
import { createSessionToken, passwordMatches } from "./session";
import { clearLoginFailures, loginBlockedFor, recordLoginFailure } from "./throttle";

/** Checks the operator password (throttled per client) and returns a new session token. */
export async function login(password: string, client: string) {
  const wait = loginBlockedFor(client);
  if (wait > 0) {
    throw new TooManyRequests(`Too many failed sign-ins; try again in ${wait} s`, wait);
  }
  if (!passwordMatches(password)) {
    recordLoginFailure(client);
    await audit({ actor: `client:${client}`, action: "login", ok: false });
    throw new NotSignedIn("Wrong password");
  }
  clearLoginFailures(client);
  await audit({ actor: "operator", action: "login", detail: { client } });
  return createSessionToken("operator");
}
