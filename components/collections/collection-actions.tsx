"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { z } from "zod";
import { errorText, postParsed } from "@/lib/browser/client";
import { collectionSummarySchema, startedRunSchema } from "@/lib/collections/client";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";

/** Run now, Pause / Resume: each a POST, then the page reads the collection again. */
export function CollectionActions({ id, paused }: { id: string; paused: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const act = async (what: "run" | "pause" | "resume") => {
    setPending(what);
    setError(null);
    try {
      const schema = what === "run" ? startedRunSchema : collectionSummarySchema;
      const out: unknown = await postParsed(`/api/collections/${encodeURIComponent(id)}/${what}`, schema as z.ZodType);
      const run = startedRunSchema.safeParse(out);
      if (what === "run" && run.success) router.push(`/runs/${run.data.runId}`);
      else router.refresh();
    } catch (err) {
      setError(err);
    } finally {
      setPending(null);
    }
  };
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void act("run")} pending={pending === "run"}>
          Run now
        </Button>
        <Button
          variant="secondary"
          onClick={() => void act(paused ? "resume" : "pause")}
          pending={pending !== null && pending !== "run"}
        >
          {paused ? "Resume schedule" : "Pause schedule"}
        </Button>
      </div>
      {error !== null && <ErrorNotice title="The action did not go through" message={errorText(error)} />}
    </div>
  );
}
