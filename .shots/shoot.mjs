// node shoot.mjs <port> <tag> [paths...]
import { chromium } from "@playwright/test";
const [port, tag, ...extra] = process.argv.slice(2);
const base = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu"] });
const ctx = await browser.newContext();
const page = await ctx.newPage();
const errors = [];
page.on("console", (m) => { if (m.type() === "error") errors.push(`${page.url()}: ${m.text()}`); });
page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
await page.goto(base + "/login");
await page.getByLabel("Password").fill("e2e operator password");
await page.getByRole("button", { name: "Sign in" }).click();
await page.waitForURL((u) => !u.pathname.startsWith("/login"));
let paths = ["/", "/jobs", "/deliveries", "/subscriptions", "/dead-letters", "/outbound", "/operations", "/settings"];
if (extra.length) paths = extra;
else {
  const r = await page.request.get(base + "/api/jobs?limit=5");
  const j = await r.json();
  if (j.items?.[0]) paths.push(`/jobs/${j.items[0].jobId ?? j.items[0].id}`);
  const h = await page.request.get(base + "/api/operations/history").catch(() => null);
  if (h && h.ok()) { const hj = await h.json(); const it = hj.items ?? hj.runs ?? []; for (const x of it.slice(0, 3)) paths.push(`/operations/${x.id}`); }
  paths.push("/jobs/new");
}
for (const [w, h] of [[1440, 900], [390, 844]]) {
  await page.setViewportSize({ width: w, height: h });
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: "networkidle" }).catch(() => {});
    await page.waitForTimeout(800);
    const sw = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
    const name = (p === "/" ? "overview" : p.slice(1).replace(/\//g, "_").slice(0, 40)) + `-${w}`;
    await page.screenshot({ path: `/work/shots/ux/${tag}-${name}.png`, fullPage: true });
    console.log(`${w} ${p} scrollWidth=${sw[0]} height=${sw[1]}`);
  }
}
console.log("ERRORS:\n" + errors.join("\n"));
await browser.close();
