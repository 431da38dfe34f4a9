// The platform's view of Tally's calls: every /v1/* arrival the simulator recorded (GET /_sim/calls),
// its mean rate and the busiest 5-second window, against TALLY_API_RPS × 5. The harness's own few
// calls (cancellations, a rotation on the platform) are counted too: the check is stricter, not looser.
export const WINDOW_MS = 5000;

export type CallRate = {
  calls: number;
  seconds: number;
  perSecond: number;
  /** The most calls whose arrivals fall within one WINDOW_MS window, and when it began (s into the calls). */
  worstWindow: number;
  worstWindowAt: number;
  /** The most calls within one second, for the curious: the budget is checked over the window. */
  worstSecond: number;
  apiRps: number;
  limit: number;
  ok: boolean;
};

/** Sliding windows anchored at each arrival: the largest count of arrivals in [at, at + width). */
function busiest(times: number[], width: number): { count: number; at: number } {
  let best = { count: 0, at: times[0] ?? 0 };
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (j < times.length && times[j]! < times[i]! + width) j++;
    if (j - i > best.count) best = { count: j - i, at: times[i]! };
  }
  return best;
}

export function computeCallRate(calls: { at: number }[], apiRps: number): CallRate {
  const times = calls.map((c) => c.at).sort((a, b) => a - b);
  const first = times[0] ?? 0;
  const seconds = times.length > 1 ? (times[times.length - 1]! - first) / 1000 : 0;
  const w = busiest(times, WINDOW_MS);
  const limit = apiRps * (WINDOW_MS / 1000);
  return {
    calls: times.length,
    seconds,
    perSecond: seconds > 0 ? times.length / seconds : times.length,
    worstWindow: w.count,
    worstWindowAt: (w.at - first) / 1000,
    worstSecond: busiest(times, 1000).count,
    apiRps,
    limit,
    ok: w.count <= limit,
  };
}

export async function fetchCallRate(simUrl: string, apiRps: number): Promise<CallRate> {
  const res = await fetch(`${simUrl}/_sim/calls`);
  if (!res.ok) throw new Error(`GET /_sim/calls → ${res.status}`);
  const body = (await res.json()) as { calls: { at: number; status: number }[] };
  return computeCallRate(body.calls, apiRps);
}

export function printCallRate(r: CallRate, log: (s: string) => void = console.log) {
  log("  platform calls seen by the simulator:");
  log(`    calls in all                      ${r.calls} over ${r.seconds.toFixed(1)} s`);
  log(`    mean calls per second             ${r.perSecond.toFixed(1)}`);
  log(`    busiest second                    ${r.worstSecond}`);
  log(`    busiest 5-second window           ${r.worstWindow} (${(r.worstWindow / 5).toFixed(1)}/s), from ${r.worstWindowAt.toFixed(1)} s`);
  log(`    limit per 5 s (TALLY_API_RPS ${r.apiRps} × 5)  ${r.limit}${r.ok ? "" : "  EXCEEDED"}`);
}
