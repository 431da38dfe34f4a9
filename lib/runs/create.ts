import "server-only";
import { randomUUID } from "node:crypto";
import { audit } from "../audit";
import { getConfig } from "../config";
import { dialect, transaction, type Tx } from "../db";
import { BadRequest } from "../errors";
import { enqueue } from "../queue";
import { currentTraceparent } from "../tracing";
import { MAX_BATCH_SIZE, type CreatedRun } from "./contracts";
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
};

/** What a collection adds to a run it starts (lib/collections/). */
export type CollectionRunOptions = {
  collectionId: string;
  trigger: "schedule" | "manual";
  /** The collection's ignorePatterns: the run's stored URLs get a fingerprint for change tracking. */
  ignorePatterns: string[];
};

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
