// What every chaos test asks of the run's database and broker sinks (scripts/chaos/sinks.ts): each
// holds every outcome event once in effect, the same events the webhook sink got. A sink whose service
// does not answer was skipped loudly by the run; under TALLY_REQUIRE_POSTGRES=1 (CI) the run fails instead.
import { expect } from "vitest";
import type { Ledger } from "../scripts/chaos/ledger";
import type { SinkTally } from "../scripts/chaos/sinks";

export function expectSinksOnceEach(ledger: Ledger, types: string[]): SinkTally[] {
  expect(ledger.sinks?.map((s) => s.type)).toEqual(types);
  const ran = (ledger.sinks ?? []).filter((s) => !s.skipped);
  for (const s of ran) {
    expect(s, s.type).toMatchObject({ missing: 0, doubled: 0, unexpected: 0, ok: true });
    expect(s.events, s.type).toBe(ledger.forwarded?.outcomes);
    expect(s.present, s.type).toBe(s.events);
  }
  return ran;
}
