import "server-only";
import { randomUUID } from "node:crypto";
import { audit } from "../audit";
import { getConfig } from "../config";
import { dialect, transaction, type Tx } from "../db";
import { BadRequest } from "../errors";
import { enqueue } from "../queue";
import { currentTraceparent } from "../tracing";
import { MAX_BATCH_SIZE, type CreatedRun } from "./contracts";
import { withDefaults, type Checks } from "../content-checks";
import { DEFAULT_ESCALATION, TOKENS_PER_PAGE, type Rung } from "./escalation";
import type { ParsedList } from "./parse-list";
import { runSubmitItem } from "./submit-item";

// Creating a run: the checked list becomes one Run row and one RunUrl row per URL, inserted 5,000
// rows per INSERT in one transaction (100,000 URLs in a few seconds), with the run's submit
// item queued in the same transaction: a run exists with its submitter, or not at all.

const URLS_PER_INSERT = 5000;

export type RunOptions = {
  name?: string;
  formats?: ("markdown" | "html")[];
  renderJs?: boolean;
  batchSize?: number;
  ignoreInvalid?: boolean;
  /** Issue 39: the checks (defaults filled in), the ladder (default DEFAULT_ESCALATION) and the token cap. */
  checks?: Checks;
  escalation?: Rung[];
  maxTokens?: number | null;
  /** false: a run whose estimate passes maxTokens starts anyway and stops at the cap (a collection's scheduled run). */
  refuseOverEstimate?: boolean;
  /** Where the cap comes from, when not the run's own (a collection's monthly cap); said in the 400 and the run's capReason. */
  capNote?: string;
};

/** What a collection adds to a run it starts (lib/collections/). */
export type CollectionRunOptions = {
  collectionId: string;
  trigger: "schedule" | "manual";
  /** The collection's ignorePatterns: the run's stored URLs get a fingerprint for change tracking. */
  ignorePatterns: string[];
};

/** One run in STEP_DOWN_EVERY starts each remembered URL a rung lower, so it steps down when the site relents. */
export const STEP_DOWN_EVERY = 10;

/**
 * A collection's run starts each URL at the rung that last worked for it (CollectionRung, issue 39), one
 * rung lower for a tenth of them (those whose position ≡ a per-run offset mod 10), clamped to the ladder.
 */
async function startAtRememberedRungs(tx: Tx, runId: string, collectionId: string, rungs: number): Promise<void> {
  const offset = Math.floor(Math.random() * STEP_DOWN_EVERY);
  const top = Math.max(0, rungs - 1);
  await tx.$executeRaw`UPDATE "RunUrl" SET "rung" = (
      SELECT CASE
        WHEN (${offset} = "RunUrl"."position" % ${STEP_DOWN_EVERY}) AND cr."rung" > 0 THEN (CASE WHEN cr."rung" - 1 > ${top} THEN ${top} ELSE cr."rung" - 1 END)
        WHEN cr."rung" > ${top} THEN ${top}
        ELSE cr."rung" END
      FROM "CollectionRung" cr WHERE cr."collectionId" = ${collectionId} AND cr."url" = "RunUrl"."url")
    WHERE "runId" = ${runId} AND EXISTS (
      SELECT 1 FROM "CollectionRung" cr WHERE cr."collectionId" = ${collectionId} AND cr."url" = "RunUrl"."url")`;
}

/** The 400 for a list with bad lines: the first 20 with their line numbers, and nothing created. */
function refuseInvalid(list: ParsedList): never {
  const shown = list.invalidLines.map((l) => `line ${l.line}: ${l.reason}`).join("; ");
  throw new BadRequest(
    `${list.invalid} invalid line${list.invalid === 1 ? "" : "s"} (an absolute http:// or https:// URL per line; send ignoreInvalid: true to skip them): ${shown}`,
    { invalid: list.invalid, invalidLines: list.invalidLines },
  );
}

export async function createRun(list: ParsedList, opts: RunOptions, actor: string): Promise<CreatedRun> {
  const created = await transaction((tx) => insertRun(tx, list, opts, actor));
  await audit({
    actor,
    action: "run.create",
    target: created.id,
    detail: {
      name: created.name,
      total: created.total,
      invalid: list.invalid,
      duplicates: list.duplicates,
      batchSize: Math.min(opts.batchSize ?? MAX_BATCH_SIZE, MAX_BATCH_SIZE),
    },
  });
  return created;
}

/** The run and its URLs and submit item, in the caller's transaction (a collection's tick commits with its run). */
export async function insertRun(
  tx: Tx,
  list: ParsedList,
  opts: RunOptions,
  actor: string,
  collection?: CollectionRunOptions,
): Promise<CreatedRun> {
  if (list.invalid > 0 && !opts.ignoreInvalid) refuseInvalid(list);
  const total = list.urls.length;
  if (total === 0) throw new BadRequest("The list holds no URL (blank lines are skipped)", { invalid: list.invalid });
  const max = getConfig().TALLY_RUN_MAX_URLS;
  if (total > max)
    throw new BadRequest(`The list holds ${total} URLs; a run takes at most ${max} (TALLY_RUN_MAX_URLS)`, {
      total,
      max,
    });
  const batchSize = Math.min(opts.batchSize ?? MAX_BATCH_SIZE, MAX_BATCH_SIZE);
  // The first rung costs a token per page (the platform's price table: one successful page, one token).
  const estimate = total * TOKENS_PER_PAGE;
  const maxTokens = opts.maxTokens ?? null;
  if (maxTokens !== null && estimate > maxTokens && opts.refuseOverEstimate !== false)
    throw new BadRequest(
      `maxTokens: the run's estimate is ${estimate} tokens (${total} URLs at ${TOKENS_PER_PAGE} token a page, before any escalation), over the cap of ${maxTokens}${opts.capNote ? ` (${opts.capNote})` : ""}`,
      [{ path: "maxTokens", message: `the estimate ${estimate} is over the cap ${maxTokens}`, estimate, maxTokens }],
    );
  const id = randomUUID();
  const now = new Date();
  const name = opts.name ?? `Run ${now.toISOString().slice(0, 16).replace("T", " ")}`;
  const request = { formats: opts.formats ?? ["markdown"], render_js: opts.renderJs ?? false };
  await tx.run.create({
    data: {
      id,
      name,
      total,
      invalid: list.invalid,
      duplicates: list.duplicates,
      batchSize,
      request: JSON.stringify(request),
      pending: total,
      checks: JSON.stringify(opts.checks ?? withDefaults(undefined)),
      escalation: JSON.stringify(opts.escalation ?? DEFAULT_ESCALATION),
      maxTokens,
      capNote: maxTokens === null ? null : (opts.capNote ?? null),
      createdBy: actor,
      createdAt: now,
      // The trace the run is made in (tracing on): its submit item continues it, its chunks link to it.
      traceContext: currentTraceparent(),
      ...(collection
        ? {
            collectionId: collection.collectionId,
            trigger: collection.trigger,
            changeRules: JSON.stringify(collection.ignorePatterns),
          }
        : {}),
    },
  });
  // Thousands of URLs per statement as ONE JSON parameter that the database expands itself:
  // parameter lists are slow to build and bind at this size, on both stores.
  for (let i = 0; i < total; i += URLS_PER_INSERT) {
    const json = JSON.stringify(list.urls.slice(i, i + URLS_PER_INSERT));
    if (dialect() === "postgres")
      await tx.$executeRaw`INSERT INTO "RunUrl" ("runId", "position", "url", "state", "attempts")
        SELECT ${id}, (t.ord - 1 + ${i})::int, t.u, 'pending', 0
        FROM json_array_elements_text(${json}::json) WITH ORDINALITY AS t(u, ord)`;
    else
      await tx.$executeRaw`INSERT INTO "RunUrl" ("runId", "position", "url", "state", "attempts")
        SELECT ${id}, CAST(j.key AS INTEGER) + ${i}, j.value, 'pending', 0 FROM json_each(${json}) AS j`;
  }
  if (collection)
    await startAtRememberedRungs(tx, id, collection.collectionId, opts.escalation?.length ?? DEFAULT_ESCALATION.length);
  await enqueue(tx, runSubmitItem(id));
  return {
    id,
    name,
    state: "submitting",
    total,
    invalid: list.invalid,
    duplicates: list.duplicates,
    createdAt: now.toISOString(),
  };
}
