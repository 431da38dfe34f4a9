import "server-only";
import { z } from "zod";
import { batchRequestSchema, crawlRequestSchema, extractRequestSchema, type PlatformClient } from "../platform";

// The request bodies Tally submits, one per kind. Kept on Job.request as JSON so a failed job can be
// resubmitted exactly as it was first sent; parsed again (never cast) when read back.

const extractBody = extractRequestSchema.omit({ processing_mode: true });

export const submitRequestSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("extract"), ...extractBody.shape }),
  z.strictObject({ kind: z.literal("batch"), ...batchRequestSchema.shape }),
  z.strictObject({ kind: z.literal("crawl"), ...crawlRequestSchema.shape }),
]);
export type SubmitRequest = z.infer<typeof submitRequestSchema>;

// The body schemas are non-strict: parsing a SubmitRequest with them drops Tally's `kind`.
const bodies = { extract: extractBody, batch: batchRequestSchema, crawl: crawlRequestSchema };

/** What goes to the platform and onto Job.request: the body without Tally's `kind`. */
export function platformBody(req: SubmitRequest) {
  return bodies[req.kind].parse(req);
}

/** Reads Job.request back; null when it is missing or no longer valid. */
export function storedRequest(kind: string, json: string | null): SubmitRequest | null {
  if (!json) return null;
  try {
    const parsed = submitRequestSchema.safeParse({
      ...z.record(z.string(), z.unknown()).parse(JSON.parse(json)),
      kind,
    });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function targetUrl(req: SubmitRequest): string {
  return req.kind === "batch" ? (req.urls[0] ?? "") : req.url;
}

export type Accepted = { jobId: string; status: string };

/** One POST to the platform; never retried by the client (a retried POST could create two jobs). */
export async function sendToPlatform(
  client: PlatformClient,
  req: SubmitRequest,
  signal?: AbortSignal,
): Promise<Accepted> {
  const call = { signal, purpose: "submit" as const };
  const a =
    req.kind === "extract"
      ? await client.submitExtract(extractBody.parse(req), call)
      : req.kind === "batch"
        ? await client.submitBatch(batchRequestSchema.parse(req), call)
        : await client.submitCrawl(crawlRequestSchema.parse(req), call);
  return { jobId: a.job_id, status: a.status };
}
