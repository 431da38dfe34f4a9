import "server-only";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { addressRefusal, type GuardContext } from "../../http/address-guard";
import type { SinkConfig, SinkType } from "../sink-config";

// The private-address rule for sinks (TALLY_ALLOW_PRIVATE_DESTINATIONS): the host a sink connects to must
// not be, or resolve to, a private, loopback, link-local or metadata address unless allowed. Checked on
// save and every time a sink's connections are opened (the clients resolve names themselves, so a name
// that changes its answer between that check and a client's reconnect is not caught: docs/sinks.md).

export function sinkHost(type: SinkType, config: SinkConfig): string {
  const c = config as Record<string, unknown>;
  const raw = type === "s3" ? c.endpoint : c.url;
  if (typeof raw !== "string") return `s3.${String(c.region)}.amazonaws.com`;
  return new URL(raw).hostname.replace(/^\[|\]$/g, "");
}

/** Why Tally must not connect to this sink's host, or null when it may. */
export async function sinkHostRefusal(type: SinkType, config: SinkConfig, guard: GuardContext): Promise<string | null> {
  const host = sinkHost(type, config);
  const addresses = isIP(host)
    ? [host]
    : /(^|\.)localhost\.?$/i.test(host)
      ? ["127.0.0.1"]
      : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  for (const a of addresses) {
    const why = addressRefusal(a, guard.allowance);
    if (why) return isIP(host) ? why : `${host} resolves to ${why}`;
  }
  return null;
}
