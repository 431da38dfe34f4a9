// Screenshots for review (not committed): node .shoot.mjs <baseUrl> <path>... 
import { chromium } from "@playwright/test";
const [base, ...paths] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
for (const [w, tag] of [[1280, "desktop"], [390, "phone"]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: w === 390 ? 844 : 900 } });
  const page = await ctx.newPage();
  const r = await page.request.post(`${base}/api/auth/login`, { data: { password: "e2e operator password" }, headers: { origin: base } });
  if (!r.ok()) throw new Error(`login ${r.status()}`);
  for (const p of paths) {
    await page.goto(base + p);
    await page.waitForTimeout(2500);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const name = p.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home";
    await page.screenshot({ path: `/tmp/shots/${name}-${tag}.png`, fullPage: true });
    console.log(`${tag} ${p}: sideways overflow ${over}px`);
  }
  await ctx.close();
}
await browser.close();
