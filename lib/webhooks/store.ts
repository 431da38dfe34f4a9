import "server-only";
import { getConfig, storeOf } from "../config";
import type { ReceiverStore } from "./store-types";
import { openPostgresStore } from "./store-postgres";
import { openSqliteStore } from "./store-sqlite";
import { slot } from "../runtime";

// The receiver's own connection to the store, apart from the ORM: one small transaction per group of
// deliveries (receipt + queue item + log row each) instead of several round trips per delivery.
// SQLite: prepared statements on a synchronous connection (store-sqlite.ts); PostgreSQL: a small pool
// (store-postgres.ts). Both commit before the delivery is answered.

export type { Accept, LogRow, ReceiverStore, SecretRow } from "./store-types";
export { sqliteDate } from "./store-sqlite";

const open = slot<{ url: string; store: ReceiverStore }>("webhooks.receiverStore");

export function receiverStore(): ReceiverStore {
  const url = getConfig().DATABASE_URL;
  const current = open.get();
  if (current?.url === url) return current.store;
  void current?.store.close();
  const store = storeOf(url) === "postgres" ? openPostgresStore(url) : openSqliteStore(url);
  return open.set({ url, store }).store;
}

export async function closeReceiverStore(): Promise<void> {
  const current = open.get();
  open.clear();
  await current?.store.close();
}
