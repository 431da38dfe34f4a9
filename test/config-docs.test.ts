// docs/configuration.md is generated from lib/config.ts's envSchema (`npm run docs:config`): it must be
// exactly what the generator renders now, and every variable must carry a description to render.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { envSchema } from "@/lib/config";
import { CONFIG_DOCS_PATH, configVariables, renderConfigDocs } from "@/scripts/config-docs/render";

describe("docs/configuration.md", () => {
  it('gives every envSchema variable a description (`.describe("…")` in lib/config.ts)', () => {
    const names = Object.keys(envSchema.shape);
    expect(names.length).toBeGreaterThan(50);
    expect(
      configVariables()
        .filter((v) => !v.description)
        .map((v) => v.name),
    ).toEqual([]);
  });

  it("is what `npm run docs:config` writes from the schema (run it after changing a variable)", () => {
    expect(readFileSync(CONFIG_DOCS_PATH, "utf8")).toBe(renderConfigDocs());
  });

  it("has one row per variable, in the schema's order, with the default the schema applies", () => {
    const doc = readFileSync(CONFIG_DOCS_PATH, "utf8");
    const rows = [...doc.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]*) \| ([^|]*) \|/gm)];
    expect(rows.map((r) => r[1])).toEqual(Object.keys(envSchema.shape));
    const row = (name: string) => rows.find((r) => r[1] === name);
    expect(row("PORT")?.slice(2, 4)).toEqual(["`3000`", "whole number, 1–65,535"]);
    expect(row("TALLY_DELIVERY_MODE")?.slice(2, 4)).toEqual(["`webhooks`", "`webhooks`, `polling`, `both`"]);
    expect(row("TALLY_RECONCILE_INTERVAL_MINUTES")?.[3]).toBe("number (fractions allowed), 0–1440");
    expect(row("TALLY_CRON_SECRET")?.slice(2, 4)).toEqual(["unset", "at least 16 characters"]);
    expect(row("TALLY_ALERT_SMTP_URL")?.[3]).toBe("an smtp(s) URL");
    expect(row("TALLY_PUBLIC_URL")?.[2]).toBe("`http://127.0.0.1:$PORT`");
  });

  it("refuses to render while a variable lacks a description, naming it", () => {
    const shape = envSchema.shape as Record<string, z.ZodType>;
    const undescribed = z.string().optional();
    const original = shape.TALLY_LOG_LEVEL;
    shape.TALLY_LOG_LEVEL = undescribed;
    try {
      expect(() => renderConfigDocs()).toThrow(/TALLY_LOG_LEVEL/);
    } finally {
      shape.TALLY_LOG_LEVEL = original;
    }
    expect(() => renderConfigDocs()).not.toThrow();
  });
});
