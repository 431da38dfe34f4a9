import "server-only";
import type { z } from "zod";
import type { batchRequestSchema, crawlRequestSchema, extractRequestSchema, JobStatus } from "@/lib/platform/contract";
import type { PageContent } from "./content";

// The simulator's job records, apart from the code that runs them, so the job store and the item
// builder can both use them without importing each other.

export type JobKind = "extract" | "batch" | "crawl";
export type JobErrorDoc = { code: string; message: string; retryable: boolean; details: Record<string, string> };
export type View = { status: JobStatus; completedAt: number | null };

type Requests = {
  extract: z.output<typeof extractRequestSchema>;
  batch: z.output<typeof batchRequestSchema>;
  crawl: z.output<typeof crawlRequestSchema>;
};

export type JobBase = {
  id: string;
  seq: number;
  createdAt: number;
  /** What GET answers. */
  status: JobStatus;
  completedAt: number | null;
  /** The truth once settled; differs from the visible state during an early-webhook window. */
  final: View | null;
  formats: string[];
  error: JobErrorDoc | null;
  items: ItemResult[];
  /** Everything random about the job, drawn at submission so outcomes do not depend on timer order. */
  plan: { durationMs: number; fail: boolean; retryable: boolean; early: boolean; error: JobErrorDoc | null };
  /** Same kind and request body: how a resubmission is recognised. */
  fingerprint: string;
  resubmittedFrom?: string;
  timers: NodeJS.Timeout[];
};

export type SimJob =
  | (JobBase & { kind: "extract"; request: Requests["extract"] })
  | (JobBase & { kind: "batch"; request: Requests["batch"]; urls: string[]; invalidUrls: string[] })
  | (JobBase & { kind: "crawl"; request: Requests["crawl"] });

export type NewJob =
  | { kind: "extract"; request: Requests["extract"] }
  | { kind: "batch"; request: Requests["batch"]; urls: string[]; invalidUrls: string[] }
  | { kind: "crawl"; request: Requests["crawl"] };

/** One page of a job's output: the single page of an extraction, a batch URL, or a crawled page. */
export type ItemResult = {
  url: string;
  status: "completed" | "failed" | "cancelled";
  errorCode: string | null;
  errorMessage: string | null;
  content: PageContent | null;
  httpStatus: number | null;
  durationMs: number;
  /** What the platform charges for this item: 0 unless completed (lib/simulator/page-kinds.ts tokensFor). */
  tokensCharged: number;
  inputIndex: number | null;
  parentUrl: string | null;
  depth: number;
  links: string[];
};
