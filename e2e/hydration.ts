import type { Page } from "@playwright/test";

// React reports a server render that does not match the browser's (times in another zone, locale
// formats) as a console error; production builds use the minified codes 418, 423 and 425.
const MISMATCH = /hydrat|Minified React error #(418|423|425)/i;

/** Starts collecting hydration errors on the page; call the result to read them. */
export function watchHydration(page: Page): () => string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && MISMATCH.test(m.text())) seen.push(m.text());
  });
  page.on("pageerror", (e) => {
    if (MISMATCH.test(e.message)) seen.push(e.message);
  });
  return () => seen;
}
