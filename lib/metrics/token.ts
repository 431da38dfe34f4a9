import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { getConfig } from "../config";

// /api/metrics takes a bearer only: TALLY_METRICS_TOKEN (what a Prometheus holds) or TALLY_API_TOKEN.
// An operator's session cookie does not open it: a scraper has none, and a page has no business there.
// (Here rather than in lib/auth: auth reaches the platform client, which counts into lib/metrics, so
// metrics importing auth would close a loop between the folders.)

function secretEquals(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export function metricsAuthorized(authorization: string | null): boolean {
  const m = /^Bearer\s+(.+)$/i.exec((authorization ?? "").trim());
  if (!m) return false;
  const { TALLY_METRICS_TOKEN, TALLY_API_TOKEN } = getConfig();
  return [TALLY_METRICS_TOKEN, TALLY_API_TOKEN].some((token) => token !== undefined && secretEquals(m[1], token));
}
