// Prisma 6.19's PostgreSQL adapter, made fit for the migration CLI (see ../shared/stack.md):
// 1. it cannot map PostgreSQL's catalog types, which the schema engine reads ("Column type 'name'
//    could not be deserialized"): such result columns are reported as text;
// 2. its shadow database for `migrate diff --from-migrations` connects back to the main database and
//    is dropped while its own pool still holds it: create it, connect to it by its own URL, and on
//    dispose end that pool first, then drop it.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

const CATALOG_TYPES = new Set([18, 19, 24, 30, 194, 1033, 2277]); // char, name, regproc, oidvector, pg_node_tree, aclitem, anyarray
const TEXT = 25;

type Field = { dataTypeID: number };
type IOResult = { fields: Field[] };
type Queryable = { performIO(query: unknown): Promise<IOResult> };
type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;

function catalogAsText<T extends object>(q: T): T {
  const io = q as unknown as Queryable;
  const performIO = io.performIO.bind(io);
  io.performIO = async (query) => {
    const result = await performIO(query);
    for (const f of result.fields) if (CATALOG_TYPES.has(f.dataTypeID)) f.dataTypeID = TEXT;
    return result;
  };
  return q;
}

function migrationFit(adapter: Adapter): Adapter {
  catalogAsText(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args) => catalogAsText(await startTransaction(...args));
  return adapter;
}

export class MigrationPg extends PrismaPg {
  constructor(private readonly url: string) {
    super({ connectionString: url });
  }

  override async connect() {
    return migrationFit(await super.connect());
  }

  override async connectToShadowDb() {
    const main = await super.connect();
    const name = `tally_shadow_${crypto.randomUUID().replaceAll("-", "")}`;
    await main.executeScript(`CREATE DATABASE "${name}"`);
    const shadowUrl = new URL(this.url);
    shadowUrl.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: shadowUrl.toString() });
    const shadow = migrationFit(await new PrismaPg(pool).connect());
    // Migration SQL arrives as one multi-statement executeRaw: run it as a script.
    const executeRaw = shadow.executeRaw.bind(shadow);
    shadow.executeRaw = async (query) => {
      if (query.args.length > 0) return executeRaw(query);
      await shadow.executeScript(query.sql);
      return 0;
    };
    shadow.dispose = async () => {
      await pool.end();
      await main.executeScript(`DROP DATABASE IF EXISTS "${name}"`);
      await main.dispose();
    };
    return shadow;
  }
}
