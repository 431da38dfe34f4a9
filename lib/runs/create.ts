import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma } from "@/generated/prisma/client";
import { audit } from "../audit/audit";
import { getConfig } from "../config";
import { transaction } from "../db";
import { BadRequest } from "../errors";
import { enqueue } from "../queue";
import { MAX_BATCH_SIZE, type CreatedRun } from "./contracts";
import type { ParsedList } from "./parse-list";
import { runSubmitItem } from "./submit-item";

// Creating a run: the checked list becomes one Run row and one RunUrl row per URL, inserted a few
// hundred rows per INSERT in one transaction (100,000 URLs in a few seconds), with the run's submit
// item queued in the same transaction: a run exists with its submitter, or not at all.

const ROWS_PER_INSERT = 500; // 3 parameters a row: far below SQLite's and PostgreSQL's limits

export type RunOptions = {
  name?: string;
  formats?: ("markdown" | "html")[];
  renderJs?: boolean;
  batchSize?: number;
  ignoreInvalid?: boolean;
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
  await transaction(async (tx) => {
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
      },
    });
    for (let i = 0; i < total; i += ROWS_PER_INSERT) {
      const rows = list.urls
        .slice(i, i + ROWS_PER_INSERT)
        .map((url, j) => Prisma.sql`(${id}, ${i + j}, ${url}, 'pending', 0)`);
      await tx.$executeRaw`INSERT INTO "RunUrl" ("runId", "position", "url", "state", "attempts") VALUES ${Prisma.join(rows)}`;
    }
    await enqueue(tx, runSubmitItem(id));
  });
  await audit({
    actor,
    action: "run.create",
    target: id,
    detail: { name, total, invalid: list.invalid, duplicates: list.duplicates, batchSize },
  });
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
