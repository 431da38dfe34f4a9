import "server-only";
import { getConfig } from "../config";
import { secretEquals } from "./session";

// /api/metrics takes a bearer only: TALLY_METRICS_TOKEN (what a Prometheus holds) or TALLY_API_TOKEN.
// An operator's session cookie does not open it: a scraper has none, and a page has no business there.

export function metricsAuthorized(authorization: string | null): boolean {
  const m = /^Bearer\s+(.+)$/i.exec((authorization ?? "").trim());
  if (!m) return false;
  const { TALLY_METRICS_TOKEN, TALLY_API_TOKEN } = getConfig();
  return [TALLY_METRICS_TOKEN, TALLY_API_TOKEN].some((token) => token !== undefined && secretEquals(m[1], token));
}
