// The chaos run's verdict on a sink: every outcome event in effect once, none missing, nothing else;
// a double fails where the sink itself must keep one (databases, NATS, Redis), and is a reported repeat
// where the consumer drops it by messageId (RabbitMQ).
import { describe, expect, it } from "vitest";
import { judgeSink, type Expected } from "./sinks";

const expected: Expected = [
  { id: "evt_stored", rows: ["job1|0", "job1|1"] },
  { id: "evt_empty", rows: [] },
  { id: "evt_dead", rows: [] },
];
const db = { keeps: "rows", consumerDedupes: false } as const;
const stream = { keeps: "events", consumerDedupes: false } as const;
const rabbit = { keeps: "events", consumerDedupes: true } as const;

describe("judgeSink", () => {
  it("passes a database holding every result row and every other event once", () => {
    const v = judgeSink(expected, ["job1|0", "job1|1", "evt_empty", "evt_dead"], db);
    expect(v).toMatchObject({ events: 3, present: 3, missing: 0, doubled: 0, unexpected: 0, held: 4, ok: true });
  });

  it("counts a stored job missing one of its rows as a missing event", () => {
    const v = judgeSink(expected, ["job1|0", "evt_empty", "evt_dead"], db);
    expect(v).toMatchObject({ present: 2, missing: 1, missingIds: ["evt_stored"], ok: false });
  });

  it("fails a repeat where the sink must keep one, and anything not expected", () => {
    expect(judgeSink(expected, ["evt_stored", "evt_empty", "evt_dead", "evt_dead"], stream)).toMatchObject({
      doubled: 1,
      repeats: 0,
      ok: false,
    });
    expect(judgeSink(expected, ["evt_stored", "evt_empty", "evt_dead", "evt_other"], stream)).toMatchObject({
      unexpected: 1,
      ok: false,
    });
    // A broker keeps a stored job as one message, never as rows.
    expect(judgeSink(expected, ["job1|0", "job1|1", "evt_empty", "evt_dead"], stream)).toMatchObject({
      missing: 1,
      unexpected: 2,
      ok: false,
    });
  });

  it("reports RabbitMQ's repeats without failing, but not a missing messageId", () => {
    const twice = ["evt_stored", "evt_stored", "evt_empty", "evt_dead", "evt_dead", "evt_dead"];
    expect(judgeSink(expected, twice, rabbit)).toMatchObject({ repeats: 3, doubled: 0, held: 6, ok: true });
    expect(judgeSink(expected, ["evt_stored", "evt_stored", "evt_dead"], rabbit)).toMatchObject({
      missing: 1,
      ok: false,
    });
  });
});
