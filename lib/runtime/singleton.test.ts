import { afterEach, describe, expect, it, vi } from "vitest";

// Two copies of the module, as Next makes them (a route bundle and the instrumentation hook each load
// lib/ on their own): the value must still exist once.
async function freshCopy() {
  vi.resetModules();
  return import("./singleton");
}

afterEach(async () => {
  (await import("./singleton")).resetSingletons("test.a", "test.b", "test.c");
});

describe("process-wide singletons", () => {
  it("makes a value once, whichever copy of the module asks first", async () => {
    const one = await freshCopy();
    const two = await freshCopy();
    expect(one).not.toBe(two);
    const create = vi.fn(() => ({ made: Math.random() }));
    const a = one.singleton("test.a", create);
    expect(two.singleton("test.a", create)).toBe(a);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("a slot is read, replaced and cleared for every copy alike", async () => {
    const one = (await freshCopy()).slot<number>("test.b");
    const two = (await freshCopy()).slot<number>("test.b");
    expect(one.get()).toBeUndefined();
    expect(two.set(5)).toBe(5);
    expect(one.get()).toBe(5);
    expect(one.getOr(() => 7)).toBe(5);
    one.clear();
    expect(two.get()).toBeUndefined();
    expect(two.getOr(() => 7)).toBe(7);
  });

  it("remembers nothing when the factory throws: the next call tries again", async () => {
    const { singleton } = await freshCopy();
    expect(() =>
      singleton("test.c", () => {
        throw new Error("not yet");
      }),
    ).toThrow("not yet");
    expect(singleton("test.c", () => "ready")).toBe("ready");
  });

  it("resetSingletons forgets the named values, so tests start afresh", async () => {
    const { singleton, resetSingletons } = await freshCopy();
    const first = singleton("test.a", () => ({}));
    resetSingletons("test.a");
    expect(singleton("test.a", () => ({}))).not.toBe(first);
  });
});
