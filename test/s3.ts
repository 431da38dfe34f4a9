// An S3-compatible server (test/s3-server.mjs, s3rver) in a process of its own, with a bucket made,
// for the tests and the chaos run that need a real S3 endpoint; and a body's object reached past the
// body store on either backend (objectsBehind), for tests that damage it. Its data lives in memory where the
// machine has /dev/shm (like an S3 that is not this machine's disk), else in a temp folder.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";

/** s3rver's fixed credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export type S3Server = {
  port: number;
  endpoint: string;
  bucket: string;
  /** The standard AWS variables for a process that talks to it (through `endpoint`, or another address). */
  env(endpoint?: string): Record<string, string>;
  /**
   * Sets those variables in this process, as an operator would for the SDK; stop() puts back what was
   * there (a vitest worker runs the next file in the same process).
   */
  useEnv(endpoint?: string): void;
  stop(): Promise<void>;
};

export async function startS3Server(bucket: string): Promise<S3Server> {
  const dir = mkdtempSync(path.join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "tally-s3-"));
  const child = spawn(process.execPath, ["test/s3-server.mjs", dir], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once("data", (d: Buffer) => resolve(Number(String(d).trim())));
      child.once("exit", (code) => reject(new Error(`test/s3-server.mjs exited with ${code}`)));
    });
    const endpoint = `http://127.0.0.1:${port}`;
    const admin = new S3Client({
      endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    admin.destroy();
    const env = (at = endpoint) => ({
      AWS_ENDPOINT_URL_S3: at,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    });
    let before: Record<string, string | undefined> | undefined;
    return {
      port,
      endpoint,
      bucket,
      env,
      useEnv(at) {
        const vars = env(at);
        before ??= Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
        Object.assign(process.env, vars);
      },
      async stop() {
        for (const [k, v] of Object.entries(before ?? {})) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
        if (child.exitCode === null && child.signalCode === null) {
          const gone = new Promise((r) => child.once("exit", r));
          child.kill("SIGKILL");
          await gone;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The name of a brotli body's object under the store's root or prefix (lib/bodies' layout). */
const objectName = (key: string) => `${key.slice(0, 2)}/${key.slice(2, 4)}/${key}.br`;

/** A brotli body's object reached past the store, as a bug, an operator or a damaged disk would. */
export type ObjectsBehind = {
  raw(key: string): Promise<Buffer>;
  overwrite(key: string, data: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  close(): void;
};

/** Objects of the store a TALLY_BODY_STORE URL names: a folder, or (at the S3 server's endpoint) a prefix. */
export function objectsBehind(storeUrl: string, endpoint?: string): ObjectsBehind {
  if (storeUrl.startsWith("file:")) {
    const at = (key: string) => path.join(storeUrl.slice("file:".length), objectName(key));
    return {
      raw: (key) => readFile(at(key)),
      overwrite: (key, data) => writeFile(at(key), data),
      remove: (key) => rm(at(key)),
      close: () => undefined,
    };
  }
  if (!endpoint) throw new Error(`objectsBehind: ${storeUrl} needs its S3 server's endpoint`);
  const u = new URL(storeUrl);
  const Bucket = u.hostname;
  const Key = (key: string) =>
    [decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, ""), objectName(key)].filter(Boolean).join("/");
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  return {
    async raw(key) {
      const out = await client.send(new GetObjectCommand({ Bucket, Key: Key(key) }));
      return Buffer.from(await out.Body!.transformToByteArray());
    },
    async overwrite(key, data) {
      await client.send(new PutObjectCommand({ Bucket, Key: Key(key), Body: data }));
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: Key(key) }));
    },
    close: () => client.destroy(),
  };
}

/**
 * A test's body store on `backend`: the folder beside the database that createTestDb gives (no
 * variables), or a bucket of an S3 server of its own, its standard AWS variables set in process.env
 * as an operator's would be (until `s3` stops). Pass `env` to createTestDb; stop `s3` after.
 */
export async function bodyStoreOn(
  backend: "file" | "s3",
  bucket: string,
): Promise<{ env: Record<string, string>; s3?: S3Server }> {
  if (backend === "file") return { env: {} };
  const s3 = await startS3Server(bucket);
  s3.useEnv();
  return { env: { TALLY_BODY_STORE: `s3://${bucket}/bodies?forcePathStyle=true` }, s3 };
}
