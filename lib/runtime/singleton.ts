// Values that must exist once per process. Next loads a module more than once in one process (each
// route bundle, the instrumentation hook, and server.ts's own bundle carry their own copy of lib/), so
// a module-level `let` would give each copy its own database pool, metrics registry, worker, timers…
// Every such value lives instead in one map on globalThis, under a key naming it; every copy of this
// module finds the same map through the process-wide symbol registry.

const STORE = Symbol.for("tally.singletons");
type Store = Map<string, unknown>;

function store(): Store {
  const g = globalThis as typeof globalThis & { [STORE]?: Store };
  return (g[STORE] ??= new Map());
}

/** One process-wide value, typed where it is declared: read, created on first use, replaced, forgotten. */
export type Slot<T> = {
  get(): T | undefined;
  /** The value, made by `create` the first time any copy of the module asks. */
  getOr(create: () => T): T;
  set(value: T): T;
  clear(): void;
};

export function slot<T>(key: string): Slot<T> {
  return {
    get: () => store().get(key) as T | undefined,
    getOr(create) {
      const s = store();
      if (!s.has(key)) s.set(key, create());
      return s.get(key) as T;
    },
    set(value) {
      store().set(key, value);
      return value;
    },
    clear: () => void store().delete(key),
  };
}

/** The process-wide value under `key`, made by `create` on first use. */
export function singleton<T>(key: string, create: () => T): T {
  return slot<T>(key).getOr(create);
}

/** For tests: forget the named values (every one without names), so the next use makes them afresh. */
export function resetSingletons(...keys: string[]): void {
  if (keys.length === 0) store().clear();
  else for (const k of keys) store().delete(k);
}
