// The caps race, small and seeded (scripts/chaos/caps.ts; `npm run chaos -- --caps 20` is the big one), on
// SQLite and, through vitest.postgres.config.mts, on PostgreSQL: three starter processes start, in the same
// second, the retried runs, manual starts and queued ticks of three collections with a monthly cap and a
// capped run each, while two worker processes submit them. Sampled while they run: charged + reserved never
// over a run's cap nor over a collection's month; every run stopped at a cap says which. On main before
// issue 50 item 2 each collection's month ended 24 tokens over its cap of 12, and no stopped run named one.
import { describe, expect, it } from "vitest";
import { runCapsRace } from "../scripts/chaos/caps";
import { POSTGRES_ADMIN_URL, TEST_STORE } from "./store";

describe("caps race (small)", () => {
  it(
    "three processes starting capped runs at once never reserve past a cap; each stopped run names its cap",
    { timeout: 420_000 },
    async () => {
      const lines: string[] = [];
      const result = await runCapsRace({
        rounds: 2,
        seed: 11,
        store: TEST_STORE,
        postgres: { adminUrl: POSTGRES_ADMIN_URL },
        log: (s) => lines.push(s),
      });
      console.log(lines.join("\n"));
      expect(result.rounds).toHaveLength(2);
      for (const r of result.rounds) {
        expect(r.samples, lines.join("\n")).toBeGreaterThan(1);
        expect(r.worstRunOver, lines.join("\n")).toBeLessThanOrEqual(0);
        expect(r.worstMonthOver, lines.join("\n")).toBeLessThanOrEqual(0);
        expect(r.unnamed, lines.join("\n")).toBe(0);
        expect(r.tokenCapWithoutReason, lines.join("\n")).toBe(0);
        // The month of each collection holds fewer tokens than its runs would spend: some run stops at a cap.
        expect(Object.values(r.stopped).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      }
      expect(result.ok).toBe(true);
    },
  );
});
