import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
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

/** One caller at a time on the connection, first come first served; a waiter can give up. */
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
 * Marks the callback of an interactive transaction on the app's SQLite connection while it runs. A
 * statement made through db() (not the callback's `tx`) from inside it would wait for the very
 * transaction it runs in: it fails at once instead, naming the mistake. Outside production only: on
 * Node 20 the first AsyncLocalStorage.run() turns on promise tracking for the whole process, which
 * cost the receiver a quarter of its deliveries a second (bench/receiver.mjs); in production such a
 * mistake fails when its wait for the slot runs out (BEGIN_BUDGET_MS).
 */
const insideTransaction = new AsyncLocalStorage<{ open: boolean }>();

class NestedStatement extends Error {
  constructor() {
    super(
      "a statement was made through db() inside its own transaction: use the transaction's `tx` (on SQLite it would wait for that transaction to end)",
    );
    this.name = "NestedStatement";
  }
}

/**
 * The app's SQLite connection and its one slot: the ONE way in for every statement the process makes
 * on it. The ORM's interactive transactions hold the slot from BEGIN to COMMIT; a statement outside a
 * transaction (the ORM's single writes and reads, $queryRaw/$executeRaw, directQuery) takes it for its
 * own execution only; directSqliteTransaction takes it for its synchronous transaction. So no statement
 * ever runs inside another caller's open transaction, where its rollback (or a crash before its
 * commit) would take an answered write with it, and no read sees rows nobody has committed.
 */
class OneWriter {
  readonly #slot = new TransactionSlot();
  constructor(readonly conn: Database.Database) {}

  /** Takes the connection by `deadline`; the returned function gives it back (once). */
  take(deadline: number): Promise<() => void> {
    if (insideTransaction.getStore()?.open) return Promise.reject(new NestedStatement());
    return this.#slot.take(deadline);
  }

  /** `fn` alone on the connection: no transaction of anyone else's is open meanwhile. */
  async turn<T>(fn: (deadline: number) => T | Promise<T>): Promise<T> {
    const deadline = Date.now() + BEGIN_BUDGET_MS;
    const release = await this.take(deadline);
    try {
      return await fn(deadline);
    } finally {
      release();
    }
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
 *
 * Statements outside a transaction take the same slot for their own execution (OneWriter): the
 * adapter alone would run them on the connection at once, inside whatever transaction is open on it.
 */
class ImmediateTransactions extends PrismaBetterSQLite3 {
  /** The connection's one way in, once connected: for directQuery() and directSqliteTransaction(). */
  writer: OneWriter | null = null;

  override async connect() {
    const adapter = await super.connect();
    const conn: unknown = Reflect.get(adapter, "client");
    const onError: unknown = Reflect.get(adapter, "onError");
    if (!(conn instanceof Database) || typeof onError !== "function")
      throw new Error("unexpected SQLite adapter shape: cannot enforce BEGIN IMMEDIATE");
    cachePreparedStatements(conn);
    manageCheckpoints(conn, conn.name);
    const fail = (err: unknown): never => onError.call(adapter, err) as never;
    const writer = new OneWriter(conn);
    this.writer = writer;
    const queryRaw = adapter.queryRaw.bind(adapter);
    const executeRaw = adapter.executeRaw.bind(adapter);
    const executeScript = adapter.executeScript.bind(adapter);
    // A statement outside a transaction: in its turn, then retried while another process holds the lock.
    const alone = <T>(fn: () => Promise<T>): Promise<T> =>
      writer
        .turn(() => withBusyRetry(fn, BUSY_TIMEOUT_MS))
        .catch((err) => {
          if (err instanceof NestedStatement) throw err;
          return fail(err);
        });
    adapter.queryRaw = (q) => alone(() => queryRaw(q));
    adapter.executeRaw = (q) => alone(() => executeRaw(q));
    adapter.executeScript = (script) => alone(() => executeScript(script));
    const original = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel): Promise<SqliteTransaction> => {
      // The adapter's answer to an isolation level SQLite cannot give (an error), unchanged.
      if (isolationLevel && isolationLevel !== "SERIALIZABLE") return original(isolationLevel);
      const deadline = Date.now() + BEGIN_BUDGET_MS;
      let release: () => void = () => undefined;
      try {
        release = await writer.take(deadline);
        await beginImmediate(conn, deadline);
      } catch (err) {
        release();
        if (err instanceof NestedStatement) throw err;
        return fail(err);
      }
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        // As the adapter's own: the engine sends COMMIT or ROLLBACK as queries, then calls these.
        options: { usePhantomQuery: false },
        // The transaction's own statements: it holds the slot (and the write lock) already.
        queryRaw: (q) => queryRaw(q),
        executeRaw: (q) => executeRaw(q),
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
  const prisma = new PrismaClient({ adapter, omit, transactionOptions: { maxWait: 10_000, timeout: 20_000 } });
  const client = getConfig().NODE_ENV === "production" ? prisma : markingTransactions(prisma);
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

/**
 * The client with its interactive transactions' callbacks marked (insideTransaction), so a statement
 * made through the client from inside one fails at once rather than waiting for the slot its own
 * transaction holds. Everything else is the client's own (functions bound to it, as Prisma expects).
 */
function markingTransactions<C extends { $transaction: (...args: never[]) => unknown }>(prisma: C): C {
  const $transaction = (arg: unknown, options?: unknown) => {
    if (typeof arg !== "function") return Reflect.apply(prisma.$transaction, prisma, [arg, options]);
    const marked = (tx: unknown) => {
      const mark = { open: true };
      return insideTransaction.run(mark, async () => {
        try {
          return await arg(tx);
        } finally {
          mark.open = false;
        }
      });
    };
    return Reflect.apply(prisma.$transaction, prisma, [marked, options]);
  };
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(prisma, {
    get(target, prop) {
      if (prop === "$transaction") return $transaction;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      let fn = bound.get(prop);
      if (!fn) bound.set(prop, (fn = value.bind(target)));
      return fn;
    },
  });
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

/** The app's SQLite connection's one way in; null on PostgreSQL. */
async function sqliteWriter(): Promise<OneWriter | null> {
  const e = entry();
  if (!e.adapter) return null;
  await e.ready;
  return e.adapter.writer;
}

/** Binds values as the ORM binds them on SQLite: dates in Prisma's text format, booleans as 0/1. */
const sqliteValues = (values: readonly unknown[]) =>
  values.map((v) => (v instanceof Date ? sqliteDate(v) : typeof v === "boolean" ? Number(v) : v));

/**
 * What a directSqliteTransaction() callback may do on the connection: run statements, nothing else
 * (the connection itself never leaves this file). Valid only while the callback runs.
 */
export type SqliteTx = {
  /** A statement with `?` parameters that returns rows (a SELECT, or RETURNING): its rows. */
  all(text: string, ...params: unknown[]): Record<string, unknown>[];
  /** A statement with `?` parameters: how many rows it changed. */
  run(text: string, ...params: unknown[]): { changes: number };
  /** A statement written with Prisma.sql, its values bound as the ORM binds them: the rows. */
  rows(sql: Prisma.Sql): Record<string, unknown>[];
};

/** A statement written with Prisma.sql, run on the connection: its rows. */
const sqliteRows = (conn: Database.Database, sql: Prisma.Sql) =>
  conn.prepare(sql.sql).all(...sqliteValues(sql.values)) as Record<string, unknown>[];

function sqliteTx(conn: Database.Database): { tx: SqliteTx; end(): void } {
  let live = true;
  const on = () => {
    if (!live) throw new Error("a directSqliteTransaction() handle was used after its transaction ended");
    return conn;
  };
  const tx: SqliteTx = {
    all: (text, ...params) =>
      on()
        .prepare(text)
        .all(...sqliteValues(params)) as Record<string, unknown>[],
    run: (text, ...params) => ({
      changes: on()
        .prepare(text)
        .run(...sqliteValues(params)).changes,
    }),
    rows: (sql) => sqliteRows(on(), sql),
  };
  return { tx, end: () => (live = false) };
}

/**
 * SQLite only (null on PostgreSQL): runs `fn` synchronously between BEGIN IMMEDIATE and COMMIT on
 * the app's connection, in its turn among every other statement (OneWriter). Synchronous, so
 * nothing else runs on the connection or holds the lock meanwhile: for the worker's per-job writes,
 * where the ORM's overhead (a wasm compile and an interpreter per statement) is most of the cost.
 * `fn` throwing rolls everything back.
 */
export async function directSqliteTransaction<T>(fn: (tx: SqliteTx) => T): Promise<T | null> {
  const writer = await sqliteWriter();
  if (!writer) return null;
  return writer.turn(async (deadline) => {
    const conn = writer.conn;
    await beginImmediate(conn, deadline);
    const { tx, end } = sqliteTx(conn);
    try {
      const result = fn(tx);
      conn.prepare("COMMIT").run();
      return result;
    } catch (err) {
      if (conn.inTransaction) conn.prepare("ROLLBACK").run();
      throw err;
    } finally {
      end();
    }
  });
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
  if (storeOf(url) !== "postgres") {
    const writer = await sqliteWriter();
    if (!writer) return null;
    return writer.turn((deadline) => withBusyRetry(() => sqliteRows(writer.conn, sql), deadline - Date.now()));
  }
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
