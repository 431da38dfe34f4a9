import { chromium } from "@playwright/test";
import { readFileSync, writeFileSync } from "node:fs";
const svg = readFileSync("app/icon.svg", "utf8");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox"] });
const page = await browser.newPage();
async function png(size) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('width="32" height="32"', `width="${size}" height="${size}"`)}</body></html>`);
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}
const p180 = await png(180);
writeFileSync("app/apple-icon.png", p180);
const p32 = await png(32);
// ICO with one PNG image inside (supported by every current browser)
const head = Buffer.alloc(22);
head.writeUInt16LE(0, 0); head.writeUInt16LE(1, 2); head.writeUInt16LE(1, 4);
head.writeUInt8(32, 6); head.writeUInt8(32, 7); head.writeUInt8(0, 8); head.writeUInt8(0, 9);
head.writeUInt16LE(1, 10); head.writeUInt16LE(32, 12); head.writeUInt32LE(p32.length, 14); head.writeUInt32LE(22, 18);
writeFileSync("app/favicon.ico", Buffer.concat([head, p32]));
await browser.close();
