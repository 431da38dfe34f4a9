import "server-only";
import { getConfig } from "../config";
import { slot } from "../runtime";

// Who is signing in, for the login throttle. X-Forwarded-For says whatever the client likes unless a
// proxy Tally trusts wrote it, so it is read only from the right: the entry the last trusted proxy
// appended (TALLY_TRUSTED_PROXY_HOPS of them, 0 by default). Tally's server (server.ts) resolves the
// address from the connection and hands it to Next in CLIENT_ADDRESS_HEADER, overwriting anything a
// client sent under that name. Under plain `next start` or `next dev` the connection is not visible
// here: without trusted proxies every client then shares one throttle (a lock-out, never a bypass).

export const CLIENT_ADDRESS_HEADER = "x-tally-client-address";
const UNKNOWN = "unknown";
const fromServer = slot<true>("clientAddress.fromServer");

/** server.ts: every request that reaches Next carries CLIENT_ADDRESS_HEADER, set by it. */
export function clientAddressSetByServer(): void {
  fromServer.set(true);
}

/** The client's address `hops` trusted proxies back, or the connection's own address with none. */
export function resolveClientAddress(
  forwardedFor: string | undefined | null,
  connection: string | undefined,
  hops: number,
): string {
  if (hops === 0) return connection ?? UNKNOWN;
  const entries = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // Fewer entries than trusted hops: the request skipped a proxy; the leftmost one is all there is.
  return entries[Math.max(0, entries.length - hops)] ?? connection ?? UNKNOWN;
}

/** The client's address for throttling. */
export function clientAddress(headers: Headers): string {
  if (fromServer.get()) return headers.get(CLIENT_ADDRESS_HEADER) ?? UNKNOWN;
  const hops = getConfig().TALLY_TRUSTED_PROXY_HOPS;
  return hops > 0 ? resolveClientAddress(headers.get("x-forwarded-for"), undefined, hops) : UNKNOWN;
}
