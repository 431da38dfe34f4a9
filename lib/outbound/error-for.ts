import "server-only";
import { isIP } from "node:net";
import { type Role, seesInternalDetail } from "../auth";

// What each role reads of a delivery attempt's error. The guard's refusal names the address a
// destination's host resolved to (lib/net, lib/outbound/sinks/guard.ts), and a failed connection the
// system's words with it ("connect ECONNREFUSED 10.0.3.7:5432"): an internal network's addresses are
// for admins only (issue 47 item 6); the attempt row keeps the whole text, and so does the log.

/** A refusal by the address guard, as a viewer or an operator reads it. */
export const PLAIN_REFUSAL =
  "refused: Tally does not connect to this destination's address (a private, loopback, link-local or metadata address, or Tally itself; TALLY_ALLOW_PRIVATE_DESTINATIONS allows private ones)";

/** Text that may hold an address: digits, hex, dots and colons, maybe in brackets. */
const CANDIDATE = /\[?[0-9A-Fa-f]*[:.][0-9A-Fa-f:.]*\]?(?:%\w+)?\]?/g;

/** `text` with every IP address in it (with its port, if any: the port stays) shown as `[address]`. */
export function maskAddresses(text: string): string {
  return text.replace(CANDIDATE, (m) => {
    if (isIP(m.replace(/^\[|\]$/g, ""))) return "[address]";
    const withPort = /^\[?(.+?)\]?:(\d{1,5})$/.exec(m);
    return withPort && isIP(withPort[1]) ? `[address]:${withPort[2]}` : m;
  });
}

/**
 * An attempt's error as `role` may read it: an admin the whole text; an operator without the addresses
 * (a refusal in a plain sentence); a viewer that, and "HTTP 500" without the answer's body (the body of
 * an internal service's answer is not for every reader).
 */
export function errorFor(role: Role, error: string | null): string | null {
  if (error === null || seesInternalDetail(role)) return error;
  if (error.startsWith("refused: ")) return PLAIN_REFUSAL;
  const masked = maskAddresses(error);
  return role === "viewer" ? masked.replace(/^(HTTP \d{3}):[\s\S]*$/, "$1") : masked;
}
