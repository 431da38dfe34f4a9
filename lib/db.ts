import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { getConfig } from "./config";

// One Prisma client per database URL and process, kept on globalThis because Next loads modules
// more than once. Secret columns are omitted unless a query asks for them.

const omit = { subscription: { secret: true, previousSecret: true } } as const;

function create(url: string) {
  const adapter = new PrismaBetterSQLite3({ url, timeout: 5000 });
  const client = new PrismaClient({ adapter, omit });
  // WAL lets readers run beside the writer; NORMAL is durable across process crashes in WAL mode.
  const ready = (async () => {
    await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await client.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
    await client.$executeRawUnsafe("PRAGMA busy_timeout = 5000");
    await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  })();
  return { client, ready };
}

export type Db = ReturnType<typeof create>["client"];
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const holder = globalThis as unknown as { __tallyDb?: Map<string, ReturnType<typeof create>> };

function entry(url = getConfig().DATABASE_URL) {
  holder.__tallyDb ??= new Map();
  let e = holder.__tallyDb.get(url);
  if (!e) {
    e = create(url);
    holder.__tallyDb.set(url, e);
  }
  return e;
}

/** The process's Prisma client for the configured database. */
export function db(): Db {
  return entry().client;
}

/** Resolves once the connection's pragmas are set; await it at start-up. */
export async function dbReady(): Promise<Db> {
  const e = entry();
  await e.ready;
  return e.client;
}

/** Closes every client (tests, scripts, graceful shutdown). */
export async function disconnectAll(): Promise<void> {
  const all = [...(holder.__tallyDb?.values() ?? [])];
  holder.__tallyDb?.clear();
  await Promise.all(all.map((e) => e.client.$disconnect()));
}
