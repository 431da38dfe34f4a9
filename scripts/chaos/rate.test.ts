// The chaos run's rate check: the busiest 5-second window (any start, not fixed buckets) against
// TALLY_API_RPS × 5, with the harness's own calls left out.
import { describe, expect, it } from "vitest";
import { computeCallRate } from "./rate";

const at = (...ms: number[]) => ms.map((t) => ({ at: t, status: 200 }));

describe("computeCallRate", () => {
  it("finds the busiest window wherever it starts, not only on 5 s boundaries", () => {
    // 3 calls at the end of one 5 s bucket and 3 at the start of the next: 6 within 5 s.
    const r = computeCallRate(at(0, 4000, 4500, 4900, 5100, 5500, 8000, 20_000), 1);
    expect(r.worstWindow).toBe(6);
    expect(r.worstWindowAt).toBe(4);
    expect(r.limit).toBe(5);
    expect(r.ok).toBe(false);
    expect(r.worstSecond).toBe(3);
    expect(r.calls).toBe(8);
    expect(r.perSecond).toBeCloseTo(8 / 20);
  });

  it("a window is half-open: calls exactly 5 s apart are not in one window", () => {
    const r = computeCallRate(at(0, 1000, 2000, 3000, 4000, 5000, 6000, 7000), 1);
    expect(r.worstWindow).toBe(5);
    expect(r.ok).toBe(true);
  });

  it("leaves out the harness's own calls: one arrival with the same status within each one's send → answer", () => {
    const recorded = [...at(0, 100, 200, 300, 400, 450, 500), { at: 460, status: 429 }];
    const r = computeCallRate(recorded, 1, [
      { from: 440, to: 470, status: 429 },
      { from: 440, to: 470, status: 200 },
      { from: 9000, to: 9100, status: 200 }, // never arrived: nothing to leave out
    ]);
    expect(r.harnessCalls).toBe(2);
    expect(r.calls).toBe(6);
    expect(r.worstWindow).toBe(6);
    expect(r.ok).toBe(false);
  });
});
