"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorText, postParsed } from "@/lib/browser/client";
import { type CollectionDetail, collectionSummarySchema } from "@/lib/collections/client";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { KeepBodiesField, keepBodiesRunsText, keepBodiesRunsValue } from "./keep-bodies-field";

const field = "w-full rounded border border-slate-300 px-2 py-1 text-sm";

/** Edit a collection's list and schedule (POST /api/collections/{id}); the next run uses them. */
export function CollectionForm({ c }: { c: CollectionDetail }) {
  const router = useRouter();
  const [urls, setUrls] = useState(c.urls ?? "");
  const [schedule, setSchedule] = useState(c.schedule ?? "");
  const [timezone, setTimezone] = useState(c.timezone);
  const [overlap, setOverlap] = useState(c.overlap);
  const [patterns, setPatterns] = useState(c.ignorePatterns.join("\n"));
  const [keepRuns, setKeepRuns] = useState(keepBodiesRunsText(c.keepBodiesRuns));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const save = async () => {
    setPending(true);
    setError(null);
    setSaved(false);
    try {
      await postParsed(`/api/collections/${encodeURIComponent(c.id)}`, collectionSummarySchema, {
        urls: urls.split(/\r?\n/),
        schedule: schedule.trim() === "" ? null : schedule.trim(),
        timezone: timezone.trim(),
        overlap,
        ignorePatterns: patterns.split(/\r?\n/).filter((p) => p.trim() !== ""),
        keepBodiesRuns: keepBodiesRunsValue(keepRuns),
      });
      setSaved(true);
      router.refresh();
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  };
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="block text-sm">
          Schedule (cron)
          <input
            className={field}
            value={schedule}
            onChange={(e) => setSchedule(e.target.value)}
            placeholder="0 2 * * *"
          />
        </label>
        <label className="block text-sm">
          Time zone (IANA)
          <input
            className={field}
            value={timezone}
            onChange={(e) => setTimezone(e.target.value)}
            placeholder="Asia/Jakarta"
          />
        </label>
        <label className="block text-sm">
          When the previous run is still going
          <select
            className={field}
            value={overlap}
            onChange={(e) => setOverlap(e.target.value === "queue" ? "queue" : "skip")}
          >
            <option value="skip">skip the tick (recorded)</option>
            <option value="queue">queue it until the run ends</option>
          </select>
        </label>
      </div>
      <label className="block text-sm">
        Ignore patterns (one regular expression a line, removed before comparing)
        <textarea
          className={`${field} font-mono`}
          rows={2}
          value={patterns}
          onChange={(e) => setPatterns(e.target.value)}
        />
      </label>
      <KeepBodiesField value={keepRuns} onChange={setKeepRuns} />
      <label className="block text-sm">
        URLs (one a line)
        <textarea className={`${field} font-mono`} rows={6} value={urls} onChange={(e) => setUrls(e.target.value)} />
      </label>
      <Button type="submit" pending={pending}>
        Save
      </Button>
      {saved && <Notice tone="good">Saved: the next run uses it.</Notice>}
      {error !== null && <ErrorNotice title="Not saved" message={errorText(error)} />}
    </form>
  );
}
