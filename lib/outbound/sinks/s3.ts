import "server-only";
import { HeadBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { SinkConfig } from "../sink-config";
import { s3GuardedAgents } from "./guard";
import { asError, type Sink, type SinkEvent, type SinkOptions } from "./types";

// S3 and S3-compatible stores: one object per event under a key made only of the event's own facts,
// `{prefix}/{yyyy}/{mm}/{dd}/{type}/{webhook-id}.json` (the date is the event's, in UTC), so a
// re-delivery overwrites the same object with the same bytes. Delivered once the PUT answered 200. A
// batch's PUTs go out in parallel, bounded per destination.

/** PUTs in flight at once per destination, however many batches run side by side. */
const PARALLEL = 8;

/** Runs jobs with at most `max` of them at once, the others waiting their turn in order. */
function limiter(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

export function objectKey(prefix: string, e: Pick<SinkEvent, "id" | "type" | "createdAt">): string {
  const d = e.createdAt.toISOString();
  const path = `${d.slice(0, 4)}/${d.slice(5, 7)}/${d.slice(8, 10)}/${e.type}/${e.id}.json`;
  return prefix ? `${prefix}/${path}` : path;
}

export function s3Sink(config: SinkConfig<"s3">, opts: SinkOptions): Sink {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle ?? false,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    maxAttempts: 1,
    requestHandler: {
      connectionTimeout: opts.timeoutMs,
      requestTimeout: opts.timeoutMs,
      throwOnRequestTimeout: true,
      ...s3GuardedAgents(opts.guard),
    },
  });
  const limit = limiter(PARALLEL);
  return {
    async check() {
      await client.send(new HeadBucketCommand({ Bucket: config.bucket })).catch((err: unknown) => {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 404) throw new Error(`bucket ${config.bucket} does not exist`);
        if (status === 403) throw new Error(`access to bucket ${config.bucket} denied`);
        throw err;
      });
    },
    async deliverMany(events: SinkEvent[]) {
      // Each PUT delivered once it answered 200; at most PARALLEL in flight for the destination.
      return Promise.all(
        events.map((e) =>
          limit(() =>
            client.send(
              new PutObjectCommand({
                Bucket: config.bucket,
                Key: objectKey(config.prefix, e),
                Body: e.body,
                ContentType: "application/json",
                Metadata: { "webhook-id": e.id, "job-id": e.jobId },
              }),
            ),
          ).then(() => null, asError),
        ),
      );
    },
    async close() {
      client.destroy();
    },
  };
}
