// The Settings page and the subscriptions list never carry a whole secret: only masks with the
// last 4 characters, whatever the secret's source (a subscription row or the environment).
import { afterEach, describe, expect, it } from "vitest";
import { settingsView } from "@/lib/settings/view";
import { subscriptionList, subscriptionsPage } from "@/lib/subscriptions/view";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";

const SUB_SECRET = "whsec_subscription_secret_Q7xZ";
const PREVIOUS = "whsec_previous_secret_value_M2kP";
const SHORT = "short12";
const ENV_SECRET = "env_shared_webhook_secret_R9tL";
const API_KEY = "live_api_key_0123456789_K4vW";
const TOKEN = "test-token-0123456789abcdef";
const SESSION = "test-session-secret-0123456789abcdef0123";
const PASSWORD = "correct horse battery";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

async function seed() {
  await db().subscription.create({
    data: {
      id: "sub-1",
      eventType: "extract_completed",
      url: "http://x/1",
      secret: SUB_SECRET,
      previousSecret: PREVIOUS,
    },
  });
  await db().subscription.create({
    data: { id: "sub-2", eventType: "batch_completed", url: "http://x/2", secret: SHORT },
  });
}

function expectNoSecret(serialized: string) {
  for (const secret of [SUB_SECRET, PREVIOUS, SHORT, ENV_SECRET, API_KEY, TOKEN, SESSION, PASSWORD]) {
    expect(serialized).not.toContain(secret);
    // nor a long piece of one
    expect(serialized).not.toContain(secret.slice(0, 12));
  }
}

describe("settings", () => {
  it("shows the effective configuration with every secret masked to its last 4 (live mode)", async () => {
    t = await createTestDb({
      GEONODE_WEBHOOK_SECRET: ENV_SECRET,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_DELIVERY_MODE: "both",
    });
    await seed();
    const view = await settingsView(undefined, "admin");
    const serialized = JSON.stringify(view);
    expectNoSecret(serialized);

    expect(view.mode).toBe("live");
    expect(view.deliveryMode).toBe("both");
    expect(view.knobs).toBeNull();
    const setting = (name: string) => view.settings.find((s) => s.name === name)?.value;
    expect(setting("GEONODE_WEBHOOK_SECRET")).toBe("••••R9tL");
    expect(setting("GEONODE_SCRAPER_API_KEY")).toBe("••••K4vW");
    expect(setting("TALLY_API_TOKEN")).toBe("••••cdef");
    expect(setting("TALLY_OPERATOR_PASSWORD")).toBe("••••tery");
    expect(setting("TALLY_DELIVERY_MODE")).toBe("both");
    expect(view.subscriptions).toEqual([
      { id: "sub-2", eventType: "batch_completed", secret: "••••", previousSecret: "(not set)" },
      { id: "sub-1", eventType: "extract_completed", secret: "••••Q7xZ", previousSecret: "••••M2kP" },
    ]);
  });

  it("says why the knobs are missing when the simulator has not started (demo mode)", async () => {
    t = await createTestDb({ GEONODE_WEBHOOK_SECRET: ENV_SECRET });
    await seed();
    const view = await settingsView();
    expectNoSecret(JSON.stringify(view));
    expect(view.mode).toBe("demo");
    expect(view.knobs).toBeNull();
    expect(view.knobsError).toMatch(/simulator/i);
  });
});

describe("subscriptions list", () => {
  it("gives only the last 4 characters of a long secret and nothing of a short one", async () => {
    t = await createTestDb();
    await seed();
    const list = await subscriptionList();
    expect(list.items).toEqual([
      {
        id: "sub-2",
        eventType: "batch_completed",
        url: "http://x/2",
        isActive: true,
        secretLast4: null,
        rotatedAt: null,
      },
      {
        id: "sub-1",
        eventType: "extract_completed",
        url: "http://x/1",
        isActive: true,
        secretLast4: "Q7xZ",
        rotatedAt: null,
      },
    ]);
    expectNoSecret(JSON.stringify(await subscriptionsPage()));
  });
});
