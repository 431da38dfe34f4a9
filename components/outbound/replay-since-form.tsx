"use client";

import { useId, useState } from "react";
import { errorText } from "@/lib/browser/client";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { useReplayOutbound } from "./use-replay-outbound";

/** An ISO time as a datetime-local value in the operator's time zone. */
function localInput(d: Date): string {
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** Replays every failed event (retrying or dead) of one destination created since a time. */
export function ReplaySinceForm({ destinationId }: { destinationId: string }) {
  const id = useId();
  const replay = useReplayOutbound();
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 24 * 3_600_000)));

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!since) return;
    replay.mutate({ destinationId, since: new Date(since).toISOString() });
  }

  return (
    <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2 text-sm" aria-label="Replay failed events">
      <label className="flex flex-col gap-1" htmlFor={`${id}-since`}>
        <span>Replay failed events since</span>
        <input
          id={`${id}-since`}
          type="datetime-local"
          required
          value={since}
          onChange={(e) => setSince(e.target.value)}
          className="rounded border border-slate-300 bg-white px-2 py-1"
        />
      </label>
      <Button type="submit" variant="secondary" pending={replay.isPending} pendingLabel="Replaying…">
        Replay failed
      </Button>
      {replay.data && (
        <div className="w-full">
          <Notice tone="good">
            Replayed {replay.data.replayed} failed event{replay.data.replayed === 1 ? "" : "s"}
            {replay.data.skipped ? `; ${replay.data.skipped} had changed meanwhile` : ""}.
          </Notice>
        </div>
      )}
      {replay.error && (
        <div className="w-full">
          <ErrorNotice title="Nothing replayed" message={errorText(replay.error)} />
        </div>
      )}
    </form>
  );
}
