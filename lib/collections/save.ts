import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { audit } from "../audit";
import { getConfig } from "../config";
import { db, transaction } from "../db";
import { BadRequest, NotFound } from "../errors";
import { checksSchema, withDefaults } from "../content-checks";
import { escalationSchema, type ParsedList } from "../runs";
import type { Collection } from "@/generated/prisma/client";
import { OVERLAPS, type CollectionSummary } from "./contracts";
import type { CollectionInput } from "./request";
import { nextRunOf, refuseProblems, settingsProblems, type CollectionSettings } from "./settings";

// Saving a collection: the list checked line by line (invalid lines are a 400 with their line numbers,
// like a run's), the settings checked as a whole, then one row. An update replaces what it names; the
// next run uses it. Every change is audited.

const formatList = z.array(z.enum(["markdown", "html"]));
const patternList = z.array(z.string());

function jsonOr<T>(text: string | null, schema: z.ZodType<T>): T | null {
  if (!text) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function settingsOf(c: Collection): CollectionSettings {
  const formats = formatList.safeParse(c.formats.split(",").filter(Boolean));
  let patterns: string[] = [];
  try {
    patterns = patternList.parse(JSON.parse(c.ignorePatterns));
  } catch {
    patterns = [];
  }
  return {
    schedule: c.schedule,
    timezone: c.timezone,
    formats: formats.success && formats.data.length > 0 ? formats.data : ["markdown"],
    renderJs: c.renderJs,
    ignorePatterns: patterns,
    overlap: OVERLAPS.find((o) => o === c.overlap) ?? "skip",
    checks: c.checks ? withDefaults(jsonOr(c.checks, checksSchema) ?? undefined) : null,
    escalation: jsonOr(c.escalation, escalationSchema),
    maxTokens: c.maxTokens,
    monthlyMaxTokens: c.monthlyMaxTokens,
    keepBodiesRuns: c.keepBodiesRuns,
  };
}

export function toSummary(c: Collection): CollectionSummary {
  return {
    id: c.id,
    name: c.name,
    urlCount: c.urlCount,
    schedule: c.schedule,
    timezone: c.timezone,
    nextRunAt: c.nextRunAt?.toISOString() ?? null,
    paused: c.paused,
  };
}

/** What is wrong with a list, in words (null: nothing). */
function listProblem(list: ParsedList): string | null {
  if (list.invalid > 0) {
    const shown = list.invalidLines.map((l) => `line ${l.line}: ${l.reason}`).join("; ");
    return `${list.invalid} invalid line${list.invalid === 1 ? "" : "s"} (an absolute http:// or https:// URL per line): ${shown}`;
  }
  if (list.urls.length === 0) return "The list holds no URL (blank lines are skipped)";
  const max = getConfig().TALLY_RUN_MAX_URLS;
  if (list.urls.length > max)
    return `The list holds ${list.urls.length.toLocaleString("en")} URLs; a collection takes at most ${max.toLocaleString("en")} (TALLY_RUN_MAX_URLS)`;
  return null;
}

const listProblems = (list: ParsedList | undefined) => {
  const problem = list ? listProblem(list) : "urls is required";
  return problem ? [{ path: "urls", message: problem }] : [];
};

function merged(input: CollectionInput, base: CollectionSettings): CollectionSettings {
  const schedule = input.schedule === undefined ? base.schedule : input.schedule === "" ? null : input.schedule;
  return {
    schedule,
    timezone: input.timezone ?? base.timezone,
    formats: input.formats ?? base.formats,
    renderJs: input.renderJs ?? base.renderJs,
    ignorePatterns: input.ignorePatterns ?? base.ignorePatterns,
    overlap: input.overlap ?? base.overlap,
    checks: input.checks === undefined ? base.checks : input.checks,
    escalation: input.escalation === undefined ? base.escalation : input.escalation,
    maxTokens: input.maxTokens === undefined ? base.maxTokens : input.maxTokens,
    monthlyMaxTokens: input.monthlyMaxTokens === undefined ? base.monthlyMaxTokens : input.monthlyMaxTokens,
    keepBodiesRuns: input.keepBodiesRuns === undefined ? base.keepBodiesRuns : input.keepBodiesRuns,
  };
}

const DEFAULTS: CollectionSettings = {
  schedule: null,
  timezone: "UTC",
  formats: ["markdown"],
  renderJs: false,
  ignorePatterns: [],
  overlap: "skip",
  checks: null,
  escalation: null,
  maxTokens: null,
  monthlyMaxTokens: null,
  keepBodiesRuns: null,
};

/** The issue-39 columns of a collection's row. */
const spendColumns = (s: CollectionSettings) => ({
  checks: s.checks === null ? null : JSON.stringify(s.checks),
  escalation: s.escalation === null ? null : JSON.stringify(s.escalation),
  maxTokens: s.maxTokens,
  monthlyMaxTokens: s.monthlyMaxTokens,
});

export async function createCollection(input: CollectionInput, actor: string): Promise<CollectionSummary> {
  const s = merged(input, DEFAULTS);
  // Every problem at once, each by its field, so the form can mark them all.
  const { name, list } = input;
  refuseProblems([
    ...(name ? [] : [{ path: "name", message: "name is required" }]),
    ...listProblems(list),
    ...settingsProblems(s),
  ]);
  if (!name || !list) throw new BadRequest("name and urls are required");
  const urls = list.urls.join("\n");
  const now = new Date();
  const row = await db().collection.create({
    data: {
      id: randomUUID(),
      name,
      urls,
      urlCount: list.urls.length,
      schedule: s.schedule,
      timezone: s.timezone,
      formats: s.formats.join(","),
      renderJs: s.renderJs,
      ignorePatterns: JSON.stringify(s.ignorePatterns),
      overlap: s.overlap,
      ...spendColumns(s),
      keepBodiesRuns: s.keepBodiesRuns,
      nextRunAt: nextRunOf({ ...s, paused: false }, now),
      createdBy: actor,
      createdAt: now,
    },
  });
  await audit({
    actor,
    action: "collection.create",
    target: row.id,
    detail: { name: row.name, urlCount: row.urlCount, schedule: row.schedule, timezone: row.timezone },
  });
  return toSummary(row);
}

export async function updateCollection(id: string, input: CollectionInput, actor: string): Promise<CollectionSummary> {
  const current = await db().collection.findUnique({ where: { id } });
  if (!current) throw new NotFound(`No collection ${id}`);
  const s = merged(input, settingsOf(current));
  refuseProblems([...(input.list ? listProblems(input.list) : []), ...settingsProblems(s)]);
  const urls = input.list?.urls.join("\n");
  const scheduleChanged = s.schedule !== current.schedule || s.timezone !== current.timezone;
  const row = await transaction(async (tx) => {
    const fresh = await tx.collection.findUnique({ where: { id }, select: { paused: true, nextRunAt: true } });
    if (!fresh) throw new NotFound(`No collection ${id}`);
    return tx.collection.update({
      where: { id },
      data: {
        ...(input.name ? { name: input.name } : {}),
        ...(urls !== undefined && input.list ? { urls, urlCount: input.list.urls.length } : {}),
        schedule: s.schedule,
        timezone: s.timezone,
        formats: s.formats.join(","),
        renderJs: s.renderJs,
        ignorePatterns: JSON.stringify(s.ignorePatterns),
        overlap: s.overlap,
        ...spendColumns(s),
        keepBodiesRuns: s.keepBodiesRuns,
        // A new schedule counts from now; an unchanged one keeps its next tick (a missed one still runs).
        ...(scheduleChanged ? { nextRunAt: nextRunOf({ ...s, paused: fresh.paused }, new Date()) } : {}),
        ...(s.overlap === "skip" ? { queuedFor: null } : {}),
      },
    });
  });
  await audit({
    actor,
    action: "collection.update",
    target: id,
    detail: {
      changed: Object.keys(input).filter((k) => k !== "list"),
      ...(input.list ? { urlCount: input.list.urls.length } : {}),
    },
  });
  return toSummary(row);
}

/** Pause stops the schedule (a manual run still works); resume counts the next tick from now, missed ones are not run. */
export async function setPaused(id: string, paused: boolean, actor: string): Promise<CollectionSummary> {
  const current = await db().collection.findUnique({ where: { id } });
  if (!current) throw new NotFound(`No collection ${id}`);
  const row = await db().collection.update({
    where: { id },
    data: {
      paused,
      nextRunAt: nextRunOf({ schedule: current.schedule, timezone: current.timezone, paused }, new Date()),
      ...(paused ? { queuedFor: null } : {}),
    },
  });
  await audit({ actor, action: paused ? "collection.pause" : "collection.resume", target: id });
  return toSummary(row);
}
