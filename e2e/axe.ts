import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

// axe-core's WCAG 2.1 A and AA rules on the page as it is now: its serious and critical findings,
// one line per rule with the elements it found, so a failing test names the fix.
export async function seriousFindings(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
