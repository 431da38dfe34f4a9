import "server-only";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { Readable } from "node:stream";
import { describeFailure } from "./errors";
import { type Backend, type BodyStore, type BodyStoreOptions, createBodyStore } from "./store";

// S3-compatible object storage: one object per body under `{prefix}/ab/cd/<key>.<ext>`. An object is
// durable once S3 answered its PUT (or its multipart upload's completion); a failed upload leaves no
// object (S3 shows an object whole or not at all) and a failed multipart upload is aborted. The SDK's
// checksums are on both ways: a CRC32 of every request body (and of every part), which S3 checks before
// it stores, and of responses when S3 sends one. Endpoint, region and credentials come from the
// standard AWS variables (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID…),
// which the SDK reads itself, unless given here.

export type S3BodyStoreOptions = BodyStoreOptions & {
  bucket: string;
  /** Folder of the bucket, without slashes at either end; "" for the bucket's root. */
  prefix?: string;
  endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers want. */
  forcePathStyle?: boolean;
  /** Per request: connecting, and waiting for an answer. */
  timeoutMs?: number;
  /** Attempts per request (the SDK retries throttling, 5xx and network errors). */
  maxAttempts?: number;
  /** Objects larger than this (stored bytes) go up in parts of partSize; S3's smallest part is 5 MiB. */
  multipartThreshold?: number;
  partSize?: number;
};

const MiB = 1024 * 1024;
/** Parts in flight at once for one multipart upload. */
const PART_PARALLEL = 4;

const status = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const errorName = (err: unknown) => (err as { name?: string }).name ?? "";
/** How long a bucket found to exist is not asked about again. */
const BUCKET_KNOWN_MS = 10_000;

export function s3Backend(options: S3BodyStoreOptions): Backend {
  const { bucket } = options;
  const prefix = (options.prefix ?? "").replace(/^\/+|\/+$/g, "");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const partSize = Math.max(5 * MiB, options.partSize ?? 8 * MiB);
  const multipartThreshold = Math.max(partSize, options.multipartThreshold ?? 16 * MiB);
  const client = new S3Client({
    ...(options.region ? { region: options.region } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    maxAttempts: options.maxAttempts ?? 3,
    requestChecksumCalculation: "WHEN_SUPPORTED",
    responseChecksumValidation: "WHEN_SUPPORTED",
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs, throwOnRequestTimeout: true },
  });
  const Key = (name: string) => (prefix ? `${prefix}/${name}` : name);
  const location = `s3://${bucket}${prefix ? `/${prefix}` : ""}${options.endpoint ? ` at ${options.endpoint}` : ""}`;

  async function multipart(name: string, data: Buffer): Promise<void> {
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: Key(name), ChecksumAlgorithm: "CRC32" }),
    );
    if (!UploadId) throw new Error(`S3 gave no upload id for ${Key(name)}`);
    try {
      const count = Math.ceil(data.length / partSize);
      const parts: { PartNumber: number; ETag?: string; ChecksumCRC32?: string }[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(PART_PARALLEL, count) }, async () => {
          while (next < count) {
            const i = next++;
            const out = await client.send(
              new UploadPartCommand({
                Bucket: bucket,
                Key: Key(name),
                UploadId,
                PartNumber: i + 1,
                Body: data.subarray(i * partSize, (i + 1) * partSize),
                ChecksumAlgorithm: "CRC32",
              }),
            );
            parts[i] = {
              PartNumber: i + 1,
              ETag: out.ETag,
              ...(out.ChecksumCRC32 ? { ChecksumCRC32: out.ChecksumCRC32 } : {}),
            };
          }
        }),
      );
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: Key(name),
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: Key(name), UploadId }))
        .catch(() => undefined);
      throw err;
    }
  }

  let bucketSeenAt = 0;
  /**
   * Whether `err` says the OBJECT does not exist (issue 47): only S3's NoSuchKey is "missing for good".
   * A missing bucket (NoSuchBucket), access denied or a network error is the store being unavailable
   * (retried, alerted), never a body lost. A HEAD's 404 has no body to tell which: the bucket is
   * asked about then (a found bucket is remembered for BUCKET_KNOWN_MS).
   */
  async function isNotFound(err: unknown): Promise<boolean> {
    if (status(err) !== 404) return false;
    if (errorName(err) === "NoSuchKey") return true;
    if (errorName(err) !== "NotFound") return false;
    if (Date.now() - bucketSeenAt < BUCKET_KNOWN_MS) return true;
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch (bucketErr) {
      if (status(bucketErr) === 404) return false;
      throw bucketErr;
    }
    bucketSeenAt = Date.now();
    return true;
  }

  return {
    location,
    where: (name) => `s3://${bucket}/${Key(name)}`,

    async size(name) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: Key(name) }));
        return head.ContentLength ?? 0;
      } catch (err) {
        if (await isNotFound(err)) return null;
        throw err;
      }
    },

    async touch(name) {
      const kept = await this.size(name);
      if (kept === null) return null;
      // S3 has no utime: the object copied onto itself with new metadata gets a new LastModified.
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: Key(name),
            CopySource: `${bucket}/${encodeURIComponent(Key(name)).replace(/%2F/g, "/")}`,
            MetadataDirective: "REPLACE",
            Metadata: { touched: new Date().toISOString() },
            ContentType: "application/octet-stream",
          }),
        );
      } catch (err) {
        if (await isNotFound(err)) return null;
        throw err;
      }
      return kept;
    },

    async removeIfOlder(name, before, notAfter) {
      // S3 cannot move an object aside: its time is read just before the delete. A put touching it in
      // the moment between would lose it, so the sweep marks the key first and such a put waits and
      // writes it again (sweep-marks.ts; docs/operations/storage.md, "The sweep"). The time is the
      // later of LastModified and the touch's own metadata: S3 renews LastModified on the self-copy,
      // some S3-compatible servers (s3rver) keep only the metadata.
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: Key(name) }));
        const touched = Date.parse(head.Metadata?.touched ?? "");
        const last = Math.max(head.LastModified?.getTime() ?? 0, Number.isNaN(touched) ? 0 : touched);
        if (last === 0 || last >= before.getTime()) return false;
      } catch (err) {
        if (await isNotFound(err)) return false;
        throw err;
      }
      if (notAfter && Date.now() > notAfter.getTime()) return false;
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: Key(name) }));
      return true;
    },

    async write(name, data) {
      if (data.length > multipartThreshold) return multipart(name, data);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: Key(name),
          Body: data,
          ContentType: "application/octet-stream",
          ChecksumAlgorithm: "CRC32",
        }),
      );
    },

    async read(name) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: Key(name) }));
        // In Node the SDK answers with the response's stream itself.
        if (!(out.Body instanceof Readable)) throw new Error(`S3 answered ${Key(name)} without a Node stream`);
        return out.Body;
      } catch (err) {
        if (await isNotFound(err)) return null;
        throw err;
      }
    },

    async readAll(name) {
      const body = await this.read(name);
      if (!body) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
      return Buffer.concat(chunks);
    },

    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: Key(name) }));
    },

    async *names() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix ? `${prefix}/` : undefined,
            ContinuationToken: token,
          }),
        );
        for (const o of page.Contents ?? []) {
          if (!o.Key) continue;
          yield {
            name: prefix ? o.Key.slice(prefix.length + 1) : o.Key,
            size: o.Size ?? 0,
            modifiedAt: o.LastModified ?? new Date(0),
          };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    async check() {
      // One HEAD of the bucket, bounded as a whole (retries included): a wrong endpoint fails start-up
      // in seconds with a reason, not a request hanging on the first body.
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }), {
          abortSignal: AbortSignal.timeout(timeoutMs * 2),
        });
      } catch (err) {
        const code = status(err);
        const why =
          code === 404
            ? "the bucket does not exist"
            : code === 403
              ? "access denied (check the credentials and the bucket's policy)"
              : code !== undefined
                ? `S3 answered ${code}`
                : `cannot reach it: ${describeFailure(err)}`;
        throw new Error(`body store ${location}: ${why}`, { cause: err });
      }
    },

    async close() {
      client.destroy();
    },
  };
}

/** Bodies as objects in S3 or an S3-compatible store (TALLY_BODY_STORE=s3://bucket/prefix). */
export function s3BodyStore(options: S3BodyStoreOptions): BodyStore {
  return createBodyStore(s3Backend(options), options);
}
