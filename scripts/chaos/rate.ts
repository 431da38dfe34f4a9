// The platform's view of Tally's calls: every /v1/* arrival the simulator recorded (GET /_sim/calls),
// its mean rate and the busiest 5-second window, against TALLY_API_RPS × 5. The harness's own few
// calls (cancellations, a rotation on the platform) do not go through Tally's budget: each is left
// out by matching it to one recorded arrival with its status between its send and its answer.
export const WINDOW_MS = 5000;

/** One of the harness's own /v1 calls: sent and answered (ms since the epoch), and its status. */
export type OwnCall = { from: number; to: number; status: number };

export type CallRate = {
  /** Tally's calls (the harness's own left out). */
  calls: number;
  harnessCalls: number;
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

/** The recorded calls less one match per own call (same status, arrival within its send → answer). */
export function withoutOwnCalls<T extends { at: number; status: number }>(calls: T[], own: OwnCall[]): T[] {
  const left = [...calls].sort((a, b) => a.at - b.at);
  const taken = new Set<number>();
  for (const o of own) {
    const i = left.findIndex((c, k) => !taken.has(k) && c.status === o.status && c.at >= o.from && c.at <= o.to);
    if (i >= 0) taken.add(i);
  }
  return left.filter((_, k) => !taken.has(k));
}

export function computeCallRate(
  recorded: { at: number; status: number }[],
  apiRps: number,
  own: OwnCall[] = [],
): CallRate {
  const calls = withoutOwnCalls(recorded, own);
  const times = calls.map((c) => c.at).sort((a, b) => a - b);
  const first = times[0] ?? 0;
  const seconds = times.length > 1 ? (times[times.length - 1]! - first) / 1000 : 0;
  const w = busiest(times, WINDOW_MS);
  const limit = apiRps * (WINDOW_MS / 1000);
  return {
    calls: times.length,
    harnessCalls: recorded.length - calls.length,
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

export async function fetchCallRate(simUrl: string, apiRps: number, own: OwnCall[] = []): Promise<CallRate> {
  const res = await fetch(`${simUrl}/_sim/calls`);
  if (!res.ok) throw new Error(`GET /_sim/calls → ${res.status}`);
  const body = (await res.json()) as { calls: { at: number; status: number }[] };
  return computeCallRate(body.calls, apiRps, own);
}

export function printCallRate(r: CallRate, log: (s: string) => void = console.log) {
  log("  platform calls seen by the simulator:");
  log(
    `    Tally's calls                     ${r.calls} over ${r.seconds.toFixed(1)} s (the harness's own ${r.harnessCalls} left out)`,
  );
  log(`    mean calls per second             ${r.perSecond.toFixed(1)}`);
  log(`    busiest second                    ${r.worstSecond}`);
  log(
    `    busiest 5-second window           ${r.worstWindow} (${(r.worstWindow / 5).toFixed(1)}/s), from ${r.worstWindowAt.toFixed(1)} s`,
  );
  log(`    limit per 5 s (TALLY_API_RPS ${r.apiRps} × 5)  ${r.limit}${r.ok ? "" : "  EXCEEDED"}`);
}
