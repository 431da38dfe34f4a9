// The small chaos run in polling mode (TALLY_DELIVERY_MODE=polling): no webhook is registered and no
// secret rotated, so polling alone must notice every job, at Tally's default budget of 10 calls a
// second, with one SIGKILL and the full fault mix; the outcome events reach a postgres sink and a RabbitMQ
// sink once in effect. The webhook run is test/chaos.test.ts.
import { describe, expect, it } from "vitest";
import { printLedger } from "../scripts/chaos/ledger";
import { runChaos } from "../scripts/chaos/run";
import { expectSinksOnceEach } from "./chaos-sinks";

describe("chaos (small), polling", () => {
  it(
    "in polling mode, notices every job by polling, loses none and doubles none within 10 calls a second",
    { timeout: 420_000 },
    async () => {
      const lines: string[] = [];
      const ledger = await runChaos({
        jobs: 120,
        kills: 1,
        seed: 13,
        timeoutMs: 360_000,
        delivery: "polling",
        apiRps: 10,
        broker: "rabbitmq",
        log: (s) => lines.push(s),
      });
      printLedger(ledger, (s) => lines.push(s));
      console.log(lines.join("\n"));
      expect(lines.some((l) => /Tally killed \(SIGKILL\)/.test(l))).toBe(true);
      expect(ledger.submitted).toBeGreaterThanOrEqual(120);
      expect(ledger.stillRunningOnPlatform).toBe(0);
      expect(ledger.lost).toBe(0);
      expect(ledger.storedTwice).toBe(0);
      expect(ledger.wrongOutcome).toBe(0);
      expect(ledger.stored).toBeGreaterThan(90);
      // No webhook was registered, so none came: polling noticed the jobs, not the final reconciliation
      // (which may still find a job whose submit was answered by a crash, so Tally never knew its id).
      expect(ledger.noticedBy.webhook ?? 0).toBe(0);
      expect(ledger.webhookAcceptedJobs).toBe(0);
      expect(ledger.noticedBy.poll ?? 0).toBeGreaterThanOrEqual(ledger.platformJobs - 5);
      expect(ledger.forwarded).toMatchObject({ missing: 0, unexpected: 0, badSignatures: 0, ok: true });
      expectSinksOnceEach(ledger, ["postgres", "rabbitmq"]);
      expect(ledger.calls?.limit).toBe(50);
      expect(ledger.calls?.worstWindow).toBeLessThanOrEqual(50);
    },
  );
});
