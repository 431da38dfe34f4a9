import "server-only";
import { getConfig, storeOf } from "../config";
import type { ReceiverStore } from "./store-types";
import { openPostgresStore } from "./store-postgres";
import { openSqliteStore } from "./store-sqlite";

// The receiver's own connection to the store, apart from the ORM: one small transaction per group of
// deliveries (receipt + queue item + log row each) instead of several round trips per delivery.
// SQLite: prepared statements on a synchronous connection (store-sqlite.ts); PostgreSQL: a small pool
// (store-postgres.ts). Both commit before the delivery is answered.

export type { Accept, LogRow, ReceiverStore, SecretRow } from "./store-types";
export { sqliteDate } from "./store-sqlite";

const holder = globalThis as unknown as { __tallyReceiverStore?: { url: string; store: ReceiverStore } };

export function receiverStore(): ReceiverStore {
  const url = getConfig().DATABASE_URL;
  if (holder.__tallyReceiverStore?.url !== url) {
    void holder.__tallyReceiverStore?.store.close();
    const store = storeOf(url) === "postgres" ? openPostgresStore(url) : openSqliteStore(url);
    holder.__tallyReceiverStore = { url, store };
  }
  return holder.__tallyReceiverStore.store;
}

export async function closeReceiverStore(): Promise<void> {
  const current = holder.__tallyReceiverStore;
  holder.__tallyReceiverStore = undefined;
  await current?.store.close();
}
