import "server-only";
import { getConfig, type TallyConfig } from "../config";
import type { SignatureScheme } from "../signing";
import { receiverStore, type SecretRow } from "./store";
import { slot } from "../runtime";

// Verification candidates per subscription, read at most once a second, so a rotated secret is
// picked up without a restart and the hot path does no query per request.

export type Candidate = { subscriptionId: string | null; eventType: string | null; secret: string };
export type CandidateGroup = { scheme: SignatureScheme; candidates: Candidate[] };

const TTL_MS = 1000;
const cache = slot<{ at: number; rows: SecretRow[] }>("webhooks.secretCache");

async function rows(now: number): Promise<SecretRow[]> {
  const c = cache.get();
  if (c && now - c.at < TTL_MS) return c.rows;
  const fresh = await receiverStore().secrets();
  cache.set({ at: now, rows: fresh });
  return fresh;
}

export function invalidateSecretCache(): void {
  cache.clear();
}

export function schemeFor(name: string, config: TallyConfig = getConfig()): SignatureScheme {
  if (name === "standard") return { kind: "standard", toleranceSeconds: config.TALLY_WEBHOOK_TOLERANCE_SECONDS };
  return {
    kind: "hmac",
    header: config.TALLY_WEBHOOK_SIGNATURE_HEADER,
    algorithm: config.TALLY_WEBHOOK_SIGNATURE_ALGORITHM,
    encoding: config.TALLY_WEBHOOK_SIGNATURE_ENCODING,
  };
}

function secretsOf(row: SecretRow, now: number): string[] {
  const out: string[] = [];
  if (row.secret) out.push(row.secret);
  if (row.previousSecret && row.previousSecretExpiresAt && Date.parse(row.previousSecretExpiresAt) > now) {
    out.push(row.previousSecret);
  }
  return out;
}

/** Candidates for POST /webhooks/geonode/{key}: that subscription's current and unexpired previous secret. */
export async function candidatesForKey(
  key: string,
  now = Date.now(),
): Promise<CandidateGroup | "unknown" | "inactive"> {
  const row = (await rows(now)).find((r) => r.id === key);
  if (!row) return "unknown";
  // Marked inactive (on the platform, mirrored by the drift check): its path accepts nothing, signed or not.
  if (!row.isActive) return "inactive";
  return {
    scheme: schemeFor(row.scheme),
    candidates: secretsOf(row, now).map((secret) => ({ subscriptionId: row.id, eventType: row.eventType, secret })),
  };
}

/** Candidates for POST /webhooks/geonode: every active subscription's secrets plus GEONODE_WEBHOOK_SECRET. */
export async function candidatesForAny(now = Date.now()): Promise<CandidateGroup[]> {
  const config = getConfig();
  const groups = new Map<string, CandidateGroup>();
  const group = (scheme: string) => {
    const key = scheme === "standard" ? "standard" : "hmac";
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { scheme: schemeFor(key, config), candidates: [] }));
    return g;
  };
  for (const row of await rows(now)) {
    if (!row.isActive) continue;
    for (const secret of secretsOf(row, now)) {
      group(row.scheme).candidates.push({ subscriptionId: row.id, eventType: row.eventType, secret });
    }
  }
  if (config.GEONODE_WEBHOOK_SECRET) {
    group(config.TALLY_WEBHOOK_SCHEME).candidates.push({
      subscriptionId: null,
      eventType: null,
      secret: config.GEONODE_WEBHOOK_SECRET,
    });
  }
  return [...groups.values()];
}
