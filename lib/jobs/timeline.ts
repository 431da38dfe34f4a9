import "server-only";
import { z } from "zod";
import type { InboundDelivery } from "@/generated/prisma/client";
import type { getJob } from "./query";

// A job's story in time order: how Tally heard of it, every delivery that named it (accepted or
// refused), every worker attempt and poll, resubmissions (linked), notes and the outcome. Event
// details are JSON written by the worker (lib/jobs); they are read as loose records, never trusted shapes.

export type TimelineEntry = {
  at: string;
  type: "submitted" | "heard" | "delivery" | "attempt" | "poll" | "resubmitted" | "outcome" | "enqueued" | "note";
  title: string;
  tone: "neutral" | "good" | "warn" | "bad" | "info";
  facts: Array<{ name: string; value: string }>;
  link?: { href: string; label: string };
};

type Job = Awaited<ReturnType<typeof getJob>>;
const record = z.record(z.string(), z.unknown());

function asRecord(v: unknown): Record<string, unknown> {
  const r = record.safeParse(v);
  return r.success ? r.data : v === null || v === undefined ? {} : { detail: v };
}

const text = (v: unknown) =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);

/** Words for the keys the worker writes into event details; an unknown key is split into words. */
const LABELS: Record<string, string> = {
  source: "how",
  deliveryId: "delivery",
  queueAttempt: "queue attempt",
  status: "platform status",
  latencyMs: "answered in",
  subscription: "subscription",
  event: "event",
  delivery: "delivery",
  kind: "kind",
  code: "error",
  reason: "reason",
  chainDepth: "resubmission depth",
  how: "how",
  by: "by",
  inFlight: "items still finishing",
  deadLetter: "dead letter",
  discardedBy: "discarded by",
  retriedBy: "retried by",
  action: "action",
  ignored: "ignored",
};
const SOURCE_WORDS: Record<string, string> = {
  webhook: "webhook",
  replay: "replay",
  reconcile: "reconciliation",
  poll: "polling",
  retry: "dead-letter retry",
};

function label(key: string): string {
  return (
    LABELS[key] ??
    key
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/[_-]+/g, " ")
      .toLowerCase()
  );
}

function value(key: string, v: unknown): string {
  if (key === "latencyMs" && typeof v === "number") return `${v} ms`;
  if (key === "source" && typeof v === "string") return SOURCE_WORDS[v] ?? v;
  if (key === "queueAttempt" && typeof v === "number") return `#${v}`;
  return text(v);
}

function facts(d: Record<string, unknown>, skip: string[] = []): TimelineEntry["facts"] {
  return Object.entries(d)
    .filter(([k, v]) => !skip.includes(k) && v !== undefined && v !== null)
    .slice(0, 8)
    .map(([name, v]) => ({ name: label(name), value: value(name, v).slice(0, 500) }));
}

const jobLink = (id: unknown, label: string) =>
  typeof id === "string" && id ? { href: `/jobs/${encodeURIComponent(id)}`, label } : undefined;

function fromEvent(e: Job["events"][number]): TimelineEntry {
  const d = asRecord(e.detail);
  const at = e.at.toISOString();
  switch (e.type) {
    case "submitted":
      return {
        at,
        type: "submitted",
        title: d.resubmittedFrom ? "Submitted as a resubmission" : "Submitted to the platform",
        tone: "info",
        facts: facts(d, ["resubmittedFrom"]),
        link: jobLink(d.resubmittedFrom, "the job it replaces"),
      };
    case "attempt":
      return {
        at,
        type: "attempt",
        title: `Worker attempt: the platform says ${text(d.status ?? "?")}`,
        tone: "neutral",
        facts: facts(d, ["status"]),
      };
    case "poll":
      return {
        at,
        type: "poll",
        title: `Polled: ${text(d.status ?? "no answer")}`,
        tone: "neutral",
        facts: facts(d, ["status"]),
      };
    case "resubmitted":
      return d.phase === "accepted"
        ? {
            at,
            type: "resubmitted",
            title: "Resubmitted as a new job",
            tone: "info",
            facts: facts(d, ["phase", "newJobId"]),
            link: jobLink(d.newJobId, "the new job"),
          }
        : { at, type: "resubmitted", title: "Resubmission started", tone: "info", facts: facts(d, ["phase"]) };
    case "outcome": {
      const outcome = text(d.outcome ?? "?");
      const tone =
        outcome === "stored"
          ? "good"
          : outcome === "dead_lettered"
            ? "bad"
            : outcome === "resubmitted"
              ? "info"
              : "neutral";
      // the "resubmitted" event beside it links the new job; one link is enough
      return {
        at,
        type: "outcome",
        title: `Outcome: ${outcome.replace("_", " ")}`,
        tone,
        facts: facts(d, ["outcome", "newJobId"]),
      };
    }
    case "enqueued":
      return { at, type: "enqueued", title: "Queued for processing", tone: "neutral", facts: facts(d) };
    default:
      return { at, type: "note", title: "Note", tone: "neutral", facts: facts(d) };
  }
}

function fromDelivery(d: InboundDelivery): TimelineEntry {
  const ok = d.status >= 200 && d.status < 300;
  return {
    at: d.receivedAt.toISOString(),
    type: "delivery",
    title: `Webhook delivery received: answered ${d.status}${d.reason ? ` (${d.reason})` : ""}`,
    tone: ok ? "good" : d.status === 401 ? "bad" : "warn",
    facts: facts({ event: d.eventType, delivery: d.deliveryId, latencyMs: d.latencyMs }),
  };
}

export function timeline(job: Job, deliveries: InboundDelivery[]): TimelineEntry[] {
  const entries = [...job.events.map(fromEvent), ...deliveries.map(fromDelivery)];
  if (!job.events.some((e) => e.type === "submitted")) {
    entries.push({
      at: job.createdAt.toISOString(),
      type: "heard",
      title: `First heard of through ${SOURCE_WORDS[job.origin] ?? job.origin}`,
      tone: "neutral",
      facts: [],
    });
  }
  // Stable: equal times keep their source order (events by id, then deliveries).
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at.localeCompare(b.e.at) || a.i - b.i)
    .map(({ e }) => e);
}
