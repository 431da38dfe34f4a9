import { randomUUID } from "node:crypto";
import pg from "pg";
import { expect, test } from "./fixtures";
import { expectNoSidewaysScroll } from "./dashboard-helpers";
import { answers } from "../test/tcp-proxy";

// A postgres sink added from the Outbound page, into a database of the test's own: a config the sink
// refuses shows the sink's own reason in the form and saves nothing; corrected, it is saved (its tables
// made) and listed with its type, its target and its password masked, never shown whole.

const ADMIN = process.env.TALLY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DATABASE = `tally_e2e_sink_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
// The server trusts local connections, so any password is accepted: what matters is where it shows.
const PASSWORD = "e2e-sink-password-4821";
const at = new URL(ADMIN);
const sinkUrl = (database: string) => `postgresql://postgres@${at.host}/${database}`;

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

let up = false;
test.beforeAll(async () => {
  up = await answers(Number(at.port || 5432), at.hostname);
  if (up) await admin(`CREATE DATABASE "${DATABASE}"`);
});
test.afterAll(async () => {
  if (up) await admin(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
});

test("adds a postgres sink from the page, showing the sink's refusal first", async ({ page }) => {
  test.skip(!up, `POSTGRESQL DOES NOT ANSWER AT ${at.host}: THE SINK FORM TEST IS SKIPPED`);
  await page.goto("/outbound");
  const form = page.getByRole("form", { name: "Add a destination" });
  await form.getByLabel("Type").selectOption("postgres");
  await form.getByLabel("Connection URL").fill(sinkUrl(`${DATABASE}_missing`));
  await form.getByLabel("Password (optional)").fill(PASSWORD);
  await form.getByLabel("Table", { exact: true }).fill("scrapes");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page
      .getByRole("region", { name: "Add a destination" })
      .screenshot({ path: `test-results/screenshots/outbound-sink-form-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  await form.getByRole("button", { name: "Add destination" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "was not added" })).toContainText(
    `The postgres sink refused its config: database "${DATABASE}_missing" does not exist`,
  );
  await expect(page.getByTestId("destination-card").filter({ hasText: DATABASE })).toHaveCount(0);

  // Corrected: the password typed before is still there, so the operator fixes only what was wrong.
  await form.getByLabel("Connection URL").fill(sinkUrl(DATABASE));
  await form.getByRole("button", { name: "Add destination" }).click();
  const target = `postgresql://postgres:••••@${at.host}/${DATABASE}#scrapes`;
  await expect(page.getByRole("status").filter({ hasText: "was added" })).toContainText(target);
  await expect(form.getByLabel("Password (optional)")).toHaveValue("");
  const card = page.getByTestId("destination-card").filter({ hasText: DATABASE });
  await expect(card).toContainText("postgres");
  await expect(card).toContainText(target);
  await expect(card).toContainText("scrapes");
  expect(await page.content()).not.toContain(PASSWORD);
  // The sink made its tables on save.
  const c = new pg.Client({ connectionString: ADMIN.replace(/\/[^/]*$/, `/${DATABASE}`) });
  await c.connect();
  const tables = await c.query<{ t: string }>(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
  );
  await c.end();
  expect(tables.rows.map((r) => r.t)).toEqual(["scrapes", "scrapes_events"]);

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/outbound-sink-listed-${width}.png`, fullPage: true });
  }
});
