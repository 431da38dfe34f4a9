import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import Database from "better-sqlite3";
import pg from "pg";
import { Prisma, PrismaClient } from "@/generated/prisma/client";
import { z } from "zod";
import { PrismaClient as PostgresPrismaClient } from "@/generated/prisma-pg/client";
import {
  cachePreparedStatements,
  manageCheckpoints,
  secureSqliteFile,
  singleton,
  sqliteDate,
  stopBackgroundCheckpoints,
  withBusyRetry,
} from "./runtime";
import { getConfig, storeOf, type Store } from "./config";

// One Prisma client per database URL and process, a process-wide singleton because Next loads
// modules more than once. DATABASE_URL picks the store: SQLite (file:) or PostgreSQL (postgresql://), through
// the same models. Secret columns are omitted unless a query asks for them.

const omit = {
  subscription: { secret: true, previousSecret: true },
  destination: { secret: true, config: true },
  user: { passwordHash: true },
  apiToken: { hash: true },
} as const;

type SqliteAdapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
type SqliteTransaction = Awaited<ReturnType<SqliteAdapter["startTransaction"]>>;

/**
 * How long a statement outside a transaction retries while SQLite's write lock is taken elsewhere
 * (transactions: below). Asynchronously: the connection's own busy_timeout is 0, since SQLite's
 * wait is synchronous and would stall the event loop (the receiver, the pages, every item's lease
 * renewal) for as long as another process holds the lock.
 */
const BUSY_TIMEOUT_MS = 5000;
/** How long starting a transaction may take, queueing and lock included: under Prisma's maxWait (10 s). */
const BEGIN_BUDGET_MS = 9000;

/** One transaction at a time on the connection, first come first served; a waiter can give up. */
class TransactionSlot {
  #held = false;
  #waiters: Array<() => void> = [];

  async take(deadline: number): Promise<() => void> {
    if (this.#held) {
      await new Promise<void>((resolve, reject) => {
        const granted = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(
          () => {
            this.#waiters.splice(this.#waiters.indexOf(granted), 1);
            reject(
              Object.assign(new Error("database is locked (waited for a transaction slot)"), { code: "SQLITE_BUSY" }),
            );
          },
          Math.max(0, deadline - Date.now()),
        );
        this.#waiters.push(granted);
      });
    }
    this.#held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) next();
      else this.#held = false;
    };
  }
}

/**
 * Transactions begin with BEGIN IMMEDIATE, not the adapter's deferred BEGIN: in WAL mode a deferred
 * transaction that reads and then writes fails with SQLITE_BUSY_SNAPSHOT when another connection
 * (the receiver's, another worker process) committed in between, and busy_timeout cannot help.
 * BEGIN IMMEDIATE takes the write lock up front, so read-then-write is safe.
 *
 * Starting one is ours rather than the adapter's, for two reasons found by holding the write lock
 * from another process (test/infra-faults.test.ts): the adapter's own startTransaction keeps its
 * mutex when BEGIN fails, so one SQLITE_BUSY stopped every later transaction of the process for
 * good (the worker hung); and a synchronous busy wait blocks the event loop (the receiver, the
 * pages) for the whole timeout. Here BEGIN IMMEDIATE is tried without a busy wait and retried
 * asynchronously until BEGIN_BUDGET_MS, and the slot is given back whatever happens.
 */
class ImmediateTransactions extends PrismaBetterSQLite3 {
  /** The connection and its transaction slot, once connected: for directSqliteTransaction(). */
  direct: { conn: Database.Database; slot: TransactionSlot } | null = null;

  override async connect() {
    const adapter = await super.connect();
    const conn: unknown = Reflect.get(adapter, "client");
    const onError: unknown = Reflect.get(adapter, "onError");
    if (!(conn instanceof Database) || typeof onError !== "function")
      throw new Error("unexpected SQLite adapter shape: cannot enforce BEGIN IMMEDIATE");
    cachePreparedStatements(conn);
    manageCheckpoints(conn, conn.name);
    const fail = (err: unknown): never => onError.call(adapter, err) as never;
    const slot = new TransactionSlot();
    this.direct = { conn, slot };
    const queryRaw = adapter.queryRaw.bind(adapter);
    const executeRaw = adapter.executeRaw.bind(adapter);
    adapter.queryRaw = (q) => withBusyRetry(() => queryRaw(q), BUSY_TIMEOUT_MS);
    adapter.executeRaw = (q) => withBusyRetry(() => executeRaw(q), BUSY_TIMEOUT_MS);
    const original = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel): Promise<SqliteTransaction> => {
      // The adapter's answer to an isolation level SQLite cannot give (an error), unchanged.
      if (isolationLevel && isolationLevel !== "SERIALIZABLE") return original(isolationLevel);
      const deadline = Date.now() + BEGIN_BUDGET_MS;
      let release: () => void = () => undefined;
      try {
        release = await slot.take(deadline);
        await beginImmediate(conn, deadline);
      } catch (err) {
        release();
        return fail(err);
      }
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        // As the adapter's own: the engine sends COMMIT or ROLLBACK as queries, then calls these.
        options: { usePhantomQuery: false },
        queryRaw: (q) => adapter.queryRaw(q),
        executeRaw: (q) => adapter.executeRaw(q),
        commit: () => Promise.resolve(release()),
        rollback: () => Promise.resolve(release()),
      };
    };
    return adapter;
  }
}

/** BEGIN IMMEDIATE (the connection has no synchronous busy wait), retried asynchronously until `deadline`. */
function beginImmediate(conn: Database.Database, deadline: number): Promise<void> {
  // Prepared statements (kept by the connection's cache), not conn.pragma(), which prepares anew each call.
  return withBusyRetry(() => void conn.prepare("BEGIN IMMEDIATE").run(), deadline - Date.now());
}

function createSqlite(url: string) {
  secureSqliteFile(url);
  const adapter = new ImmediateTransactions({ url, timeout: 0 });
  // Interactive transactions get more room than Prisma's 5 s default: a busy two-core machine
  // must not turn a slow commit into a failed rotation.
  const client = new PrismaClient({ adapter, omit, transactionOptions: { maxWait: 10_000, timeout: 20_000 } });
  // WAL lets readers run beside the writer; NORMAL is durable across process crashes in WAL mode.
  const ready = (async () => {
    await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await client.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
    await client.$executeRawUnsafe("PRAGMA busy_timeout = 0");
    await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  })();
  // Callers of dbReady() see a failure; nobody else may, so it must not become an unhandled rejection.
  ready.catch(() => undefined);
  return { client, ready, adapter };
}

const POOL_SIZE = 10;

function createPostgres(url: string) {
  const adapter = new PrismaPg({ connectionString: url, max: POOL_SIZE });
  const pg = new PostgresPrismaClient({ adapter, omit, transactionOptions: { maxWait: 10_000, timeout: 20_000 } });
  // Both clients are generated from the same models (prisma/postgres/schema.prisma is made from
  // prisma/schema.prisma, and a test keeps it so), so they have the same API; the rest of lib/ is
  // written against one of them.
  const client = pg as unknown as ReturnType<typeof createSqlite>["client"];
  const ready = client.$queryRawUnsafe("SELECT 1").then(() => undefined);
  ready.catch(() => undefined);
  return { client, ready, adapter: null };
}

function create(url: string) {
  return storeOf(url) === "postgres" ? createPostgres(url) : createSqlite(url);
}

export type Db = ReturnType<typeof createSqlite>["client"];
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

const clients = () => singleton("db.clients", () => new Map<string, ReturnType<typeof create>>());

function entry(url = getConfig().DATABASE_URL) {
  let e = clients().get(url);
  if (!e) {
    e = create(url);
    clients().set(url, e);
  }
  return e;
}

/** The configured store, for the few statements that differ between SQLite and PostgreSQL. */
export function dialect(): Store {
  return storeOf(getConfig().DATABASE_URL);
}

/**
 * `column IN (values)` with the list bound as ONE JSON parameter, not one parameter per value: Prisma
 * compiles and binds each parameter on its own, and the SQL text of `IN (?, ?, …)` changes with the
 * list's length, so no prepared statement is reused; a sink batch's 100-id lists cost more in that than
 * in the database. SQLite reads the list with json_each, PostgreSQL with jsonb_array_elements_text
 * (numbers cast back to integers, so the column's index is used). Values all numbers or all strings;
 * `column` is SQL written in the code (`d."id"`), never input.
 */
export function inList(column: string, values: ReadonlyArray<string | number>): Prisma.Sql {
  if (values.length === 0) return Prisma.sql`1 = 0`;
  const json = JSON.stringify(values);
  const col = Prisma.raw(column);
  if (dialect() !== "postgres") return Prisma.sql`${col} IN (SELECT "value" FROM json_each(${json}))`;
  return typeof values[0] === "number"
    ? Prisma.sql`${col} = ANY(SELECT CAST("value" AS bigint) FROM jsonb_array_elements_text(CAST(${json} AS jsonb)) AS "e"("value"))`
    : Prisma.sql`${col} = ANY(SELECT "value" FROM jsonb_array_elements_text(CAST(${json} AS jsonb)) AS "e"("value"))`;
}

/** An integer as a raw query answers it: a number, or a bigint (PostgreSQL's int8 and counts). */
export const sqlInt = z.union([z.number(), z.bigint()]).transform(Number);

/** The process's Prisma client for the configured database. */
export function db(): Db {
  return entry().client;
}

/**
 * The app's SQLite connection, once free of the ORM's transactions (the same slot, taken by `deadline`),
 * for `fn`; null on PostgreSQL. Synchronous work on it cannot interleave with anything else.
 */
async function withDirectSqlite<T>(
  fn: (conn: Database.Database, deadline: number) => T | Promise<T>,
): Promise<T | null> {
  const e = entry();
  if (!e.adapter) return null;
  await e.ready;
  const direct = e.adapter.direct;
  if (!direct) return null;
  const deadline = Date.now() + BEGIN_BUDGET_MS;
  const release = await direct.slot.take(deadline);
  try {
    return await fn(direct.conn, deadline);
  } finally {
    release();
  }
}

/**
 * SQLite only (null on PostgreSQL): runs `fn` synchronously between BEGIN IMMEDIATE and COMMIT on
 * the app's connection, in its turn among the ORM's transactions (the same slot). Synchronous, so
 * nothing else runs on the connection or holds the lock meanwhile: for the worker's per-job writes,
 * where the ORM's overhead (a wasm compile and an interpreter per statement) is most of the cost.
 * `fn` throwing rolls everything back.
 */
export function directSqliteTransaction<T>(fn: (conn: Database.Database) => T): Promise<T | null> {
  return withDirectSqlite(async (conn, deadline) => {
    await beginImmediate(conn, deadline);
    try {
      const result = fn(conn);
      conn.prepare("COMMIT").run();
      return result;
    } catch (err) {
      if (conn.inTransaction) conn.prepare("ROLLBACK").run();
      throw err;
    }
  });
}

/**
 * Runs a statement written with Prisma.sql on a better-sqlite3 connection, its values bound as the
 * ORM binds them (dates in Prisma's text format, booleans as 0/1): the rows.
 */
export function sqliteRows(conn: Database.Database, sql: Prisma.Sql): Record<string, unknown>[] {
  const values = sql.values.map((v) => (v instanceof Date ? sqliteDate(v) : typeof v === "boolean" ? Number(v) : v));
  return conn.prepare(sql.sql).all(...values) as Record<string, unknown>[];
}

/** Direct PostgreSQL connections per process: the worker runs at most a few statements at once. */
const DIRECT_POOL_SIZE = 4;
const TIMESTAMP_OID = 1114; // "timestamp(3)" columns hold UTC wall time, as Prisma writes and reads them

const directPools = () => singleton("db.directPools", () => new Map<string, pg.Pool>());

function directPool(url: string): pg.Pool {
  let pool = directPools().get(url);
  if (!pool) {
    pool = new pg.Pool({
      connectionString: url,
      max: DIRECT_POOL_SIZE,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === TIMESTAMP_OID && format !== "binary"
            ? (v: string) => new Date(`${v.replace(" ", "T")}Z`)
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection the server dropped: the pool replaces it; the next statement reports a real failure.
    pool.on("error", () => undefined);
    directPools().set(url, pool);
  }
  return pool;
}

/**
 * Runs one statement written with Prisma.sql apart from the ORM, committing on its own: on SQLite on
 * the app's connection between the ORM's transactions, on PostgreSQL on a small pool of the process's
 * own. For the worker's hot statements (the claim, the job's head read, the stored extract), where
 * Prisma 6.19 compiles every raw statement in WebAssembly and interprets its rows: several times the
 * statement's own cost. Values are bound and dates read back as through the ORM (on PostgreSQL, int8
 * and numeric come back as strings); null when the store has no direct path.
 */
export async function directQuery(sql: Prisma.Sql): Promise<Record<string, unknown>[] | null> {
  const url = getConfig().DATABASE_URL;
  if (storeOf(url) !== "postgres")
    return withDirectSqlite((conn, deadline) => withBusyRetry(() => sqliteRows(conn, sql), deadline - Date.now()));
  const values = sql.values.map((v) => (v instanceof Date ? v.toISOString() : v));
  return (await directPool(url).query(sql.text, values)).rows as Record<string, unknown>[];
}

// What must happen only once a transaction has committed (counting an outcome in the metrics): a
// rolled-back transaction, retried by its caller, must not have counted the first time.
const commitHooks = new WeakMap<object, Array<() => void>>();

/**
 * db().$transaction with an "after commit" list: hooks added with afterCommit(tx, …) inside `fn` run
 * once the transaction has committed, and never when it rolls back.
 */
export async function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const hooks: Array<() => void> = [];
  const result = await db().$transaction((tx) => {
    commitHooks.set(tx, hooks);
    return fn(tx);
  });
  for (const hook of hooks) hook();
  return result;
}

/** Runs `hook` after `tx` commits; `tx` must come from transaction() (a plain $transaction has no list). */
export function afterCommit(tx: Tx, hook: () => void): void {
  const hooks = commitHooks.get(tx);
  if (!hooks)
    throw new Error("afterCommit: open the transaction with transaction() from lib/db.ts, not db().$transaction");
  hooks.push(hook);
}

// On SQLite the process's one connection runs a whole interactive transaction at a time (the adapter
// holds it from BEGIN to COMMIT), so a read waits behind a worker's transaction (a run settling a
// 1,000-item batch). Reads that may be a commit behind and must not wait use a second connection; WAL
// lets it read beside the writer. (It cannot help while a statement blocks the one thread: see
// docs/runs.md, "Measured".)
const readers = () => singleton("db.readers", () => new Map<string, Db>());

function createSqliteReader(url: string): Db {
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url, timeout: 5000 }), omit });
  void client.$executeRawUnsafe("PRAGMA busy_timeout = 5000").catch(() => undefined);
  return client;
}

/**
 * A client for reads that need no transaction and may see the state one commit old (a run's counters,
 * a list page): on SQLite its own connection, never queued behind a writer's transaction; on
 * PostgreSQL the pool of db().
 */
export function readDb(): Db {
  const url = getConfig().DATABASE_URL;
  if (storeOf(url) === "postgres") return db();
  let r = readers().get(url);
  if (!r) {
    r = createSqliteReader(url);
    readers().set(url, r);
  }
  return r;
}

/** Resolves once the connection's pragmas are set; await it at start-up. */
export async function dbReady(): Promise<Db> {
  const e = entry();
  await e.ready;
  return e.client;
}

/** Closes every client (tests, scripts, graceful shutdown). */
export async function disconnectAll(): Promise<void> {
  const all = [...clients().values()].map((e) => e.client);
  const reading = [...readers().values()];
  const pools = [...directPools().values()];
  clients().clear();
  readers().clear();
  directPools().clear();
  await Promise.all([...all, ...reading].map((c) => c.$disconnect()));
  await Promise.all(pools.map((p) => p.end()));
  await stopBackgroundCheckpoints();
}
