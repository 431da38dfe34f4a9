// What the run page says of a rotation at each step, and of one that ended without its work done:
// the operator must see whether the secret was stored and which run finished the job.
import { describe, expect, it } from "vitest";
import { describeRun } from "./describe";

const subs = [{ id: "sub-x", eventType: "extract_completed" }];
const rotate = (over: Partial<Parameters<typeof describeRun>[0]>) =>
  describeRun(
    { id: "r-1", kind: "rotate", state: "running", params: { subscriptionId: "sub-x", source: "rotated" }, ...over },
    subs,
  );

describe("a rotation in words", () => {
  it("does not say the secret is stored before it is", () => {
    expect(rotate({ progress: {} }).sentences).toEqual(["Asking the platform for a new secret…"]);
    expect(rotate({ progress: { phase: "replaying" } }).sentences[0]).toContain("Secret stored");
  });

  it("an interrupted rotation links to the rotation that recovered it; that one links back", () => {
    const interrupted = rotate({
      state: "failed",
      error: "abandoned: no heartbeat since …",
      summary: { secretInDoubt: true, recovery: "rotated_again", recoveredBy: "r-2", note: "…" },
    });
    expect(interrupted.sentences.join(" ")).toContain("The new secret was never stored");
    expect(interrupted.sentences.join(" ")).not.toContain("is in use");
    expect(interrupted).toMatchObject({ childRunId: "r-2", childLabel: "Open the rotation that recovered it →" });

    const again = describeRun(
      {
        id: "r-2",
        kind: "rotate",
        state: "succeeded",
        startedBy: "recovery of run r-1",
        params: { subscriptionId: "sub-x", source: "rotated", recovers: "r-1" },
        summary: { secretLast4: "abcd", replay: { enqueued: 4 }, replayRunId: "r-3" },
      },
      subs,
    );
    expect(again.asked).toContain("again, because an earlier rotation did not store the secret");
    expect(again.by).toMatchObject({ runId: "r-1", linkText: "an interrupted rotation", short: "recovery" });
    expect(again.sentences[0]).toContain("(ending abcd) is in use");
  });

  it("a doubt not yet recovered says Tally will rotate again; a stored one says its 401s are replayed", () => {
    expect(rotate({ state: "failed", summary: { secretInDoubt: true } }).sentences.join(" ")).toContain(
      "Tally rotates again by itself",
    );
    const stored = rotate({ state: "failed", summary: { recovery: "replayed", recoveredBy: "r-9" } });
    expect(stored.sentences.join(" ")).toContain("after storing the new secret");
    // A run whose process stopped says so in the page's own time format.
    expect(
      rotate({ state: "failed", error: "abandoned: no heartbeat since 2026-12-04T17:40:03.112Z (its process stopped)" })
        .sentences[0],
    ).toBe("It failed: its process stopped (no heartbeat since 2026-12-04 17:40 UTC).");
    // A reason that ends its own sentence is not given a second full stop.
    expect(rotate({ state: "failed", error: "Rotate again." }).sentences[0]).toBe("It failed: Rotate again.");
    expect(stored).toMatchObject({ childRunId: "r-9", childLabel: "Open the replay that finished it →" });
  });
});
