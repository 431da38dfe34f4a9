import { chromium } from "@playwright/test";
const base = `http://127.0.0.1:${process.argv[2]}`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox"] });
const page = await (await browser.newContext()).newPage();
await page.goto(base + "/login");
await page.getByLabel("Password").fill("e2e operator password");
await page.getByRole("button", { name: "Sign in" }).click();
await page.waitForURL((u) => !u.pathname.startsWith("/login"));
const h = { origin: base, "content-type": "application/json" };
const subs = await (await page.request.get(base + "/api/subscriptions")).json();
console.log(JSON.stringify(subs).slice(0, 400));
for (const [p, d] of [["/api/operations/reconcile", {}], ["/api/operations/replay", {}], [`/api/subscriptions/${subs.items[0].id}/rotate`, {}]]) {
  const r = await page.request.post(base + p, { data: d, headers: h });
  console.log(p, r.status(), (await r.text()).slice(0, 200));
}
await browser.close();
