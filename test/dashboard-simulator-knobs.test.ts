// The Settings page's fault knobs go to the simulator's control API, are validated, audited, and
// refused in live mode (where the base URL is the real platform).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorKnobsPatchSchema } from "@/lib/demo/knobs-contracts";
import { readSimulatorKnobs, saveSimulatorKnobs } from "@/lib/demo/knobs";
import { settingsView } from "@/lib/settings/view";
import { setApiBaseUrl, type TallyConfig } from "@/lib/config";
import { db } from "@/lib/db";
import { createSimulator } from "@/lib/simulator/server";
import { createTestDb, type TestDb } from "./db";

let t: TestDb;
let sim: { url: string; close(): Promise<void> };
const simulator = createSimulator({ mode: "demo", seed: 7, apiKey: "demo-key" });

beforeAll(async () => {
  t = await createTestDb();
  sim = await simulator.listen(0);
  setApiBaseUrl(sim.url);
});
afterAll(async () => {
  await sim?.close();
  await t?.cleanup();
});

describe("simulator knobs", () => {
  it("reads the demo simulator's fault rates", async () => {
    const knobs = await readSimulatorKnobs();
    expect(knobs.webhookDropRate).toBe(simulator.getConfig().webhookDropRate);
    expect(knobs.webhookDelayMs).toEqual(simulator.getConfig().webhookDelayMs);
    expect((await settingsView()).knobs).toEqual(knobs);
  });

  it("saves a change to the simulator and records it in the audit log", async () => {
    const saved = await saveSimulatorKnobs(
      { webhookDropRate: 0.3, failureRate: 0, webhookDelayMs: [100, 200] },
      "operator",
    );
    expect(saved).toMatchObject({ webhookDropRate: 0.3, failureRate: 0, webhookDelayMs: [100, 200] });
    expect(simulator.getConfig()).toMatchObject({ webhookDropRate: 0.3, failureRate: 0 });
    const entry = await db().auditLog.findFirst({ where: { action: "simulator.configure" }, orderBy: { id: "desc" } });
    expect(entry).toMatchObject({ actor: "operator", ok: true });
    expect(JSON.parse(entry?.detail ?? "{}")).toEqual({
      webhookDropRate: 0.3,
      failureRate: 0,
      webhookDelayMs: [100, 200],
    });
  });

  it("sets the simulator's page sizes (bodyBytes), refusing an unordered or oversized range", async () => {
    expect((await readSimulatorKnobs()).bodyBytes).toEqual(simulator.getConfig().bodyBytes);
    const saved = await saveSimulatorKnobs({ bodyBytes: [3000, 5000] }, "operator");
    expect(saved.bodyBytes).toEqual([3000, 5000]);
    expect(simulator.getConfig().bodyBytes).toEqual([3000, 5000]);
    expect(simulatorKnobsPatchSchema.safeParse({ bodyBytes: [5000, 3000] }).success).toBe(false);
    expect(simulatorKnobsPatchSchema.safeParse({ bodyBytes: [0, 16_000_001] }).success).toBe(false);
    expect(simulatorKnobsPatchSchema.safeParse({ bodyBytes: [1.5, 3] }).success).toBe(false);
  });

  it("makes pages change when read again, and pages hostile, from Settings (contentChangeRate, hostilePageRate)", async () => {
    const saved = await saveSimulatorKnobs({ contentChangeRate: 1, hostilePageRate: 0.25 }, "operator");
    expect(saved).toMatchObject({ contentChangeRate: 1, hostilePageRate: 0.25 });
    expect(simulator.getConfig()).toMatchObject({ contentChangeRate: 1, hostilePageRate: 0.25 });
    expect(simulatorKnobsPatchSchema.safeParse({ contentChangeRate: 1.2 }).success).toBe(false);
    await saveSimulatorKnobs({ contentChangeRate: 0, hostilePageRate: 0 }, "operator");
  });

  it("validates a patch before it leaves: shares in 0..1, known names only, an ordered delay range", () => {
    expect(simulatorKnobsPatchSchema.safeParse({ webhookDropRate: 1.5 }).success).toBe(false);
    expect(simulatorKnobsPatchSchema.safeParse({ webhookDropRate: -0.1 }).success).toBe(false);
    expect(simulatorKnobsPatchSchema.safeParse({ dropEverything: 1 }).success).toBe(false);
    expect(simulatorKnobsPatchSchema.safeParse({ webhookDelayMs: [500, 100] }).success).toBe(false);
    expect(simulatorKnobsPatchSchema.safeParse({ earlyWebhookRate: 0.25 }).success).toBe(true);
  });

  it("is not found in live mode, and nothing is sent", async () => {
    const live: TallyConfig = { ...t.config, mode: "live", apiBaseUrl: sim.url };
    const before = simulator.getConfig();
    await expect(readSimulatorKnobs(live)).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringMatching(/demo mode/),
    });
    await expect(saveSimulatorKnobs({ webhookDropRate: 1 }, "operator", live)).rejects.toMatchObject({
      code: "not_found",
    });
    expect(simulator.getConfig()).toEqual(before);
  });

  it("reports an unreachable simulator in words", async () => {
    const gone: TallyConfig = { ...t.config, apiBaseUrl: "http://127.0.0.1:9" };
    await expect(readSimulatorKnobs(gone)).rejects.toMatchObject({
      code: "upstream_error",
      message: expect.stringMatching(/could not be reached/),
    });
  });
});
