import "server-only";
import { isBodyError, isBodyUnavailable } from "../bodies";
import { db } from "../db";
import { countBodyUnavailable } from "../metrics";
import { readBody } from "../results";
import type { Rule } from "./rule";

// The body store does not answer (issue 50): one probe per evaluation, from the evaluating process, of
// the newest body a row names, read as a reader reads it (from the process's cache of texts once its
// object is found still there: a stat, or a HEAD on S3). Every process reads the same store, so one
// probe speaks for all; a probe that finds the body missing or corrupt is not an outage
// (tally_body_missing_total counts those), and is not this rule's to fire on.

/** Rows looked through, newest first, for one whose body is in the store (small bodies stay inline). */
const NEWEST_ROWS = 1000;
/** A probe given no answer in this long counts as no answer (the store's own timeouts are longer). */
export const BODY_PROBE_TIMEOUT_MS = 15_000;

export const bodyStoreUnavailable: Rule = {
  name: "body_store_unavailable",
  description:
    "The body store does not answer a read of a kept page body (S3 unreachable or refusing, a disk error): results show body_unavailable until it does; nothing is lost",
  page: "/settings",
  thresholds: () => [
    {
      setting: "TALLY_BODY_STORE",
      value: `a probe of the newest kept body fails or gets no answer in ${BODY_PROBE_TIMEOUT_MS / 1000} s`,
    },
  ],
  async check() {
    const rows = await db().result.findMany({
      where: { bodyRemovedAt: null },
      orderBy: { id: "desc" },
      take: NEWEST_ROWS,
      select: {
        id: true,
        jobId: true,
        markdownKey: true,
        markdownCodec: true,
        markdownSize: true,
        htmlKey: true,
        htmlCodec: true,
        htmlSize: true,
      },
    });
    const kept = rows
      .map((r) =>
        r.markdownKey && r.markdownCodec
          ? { id: r.id, jobId: r.jobId, key: r.markdownKey, codec: r.markdownCodec, size: r.markdownSize }
          : r.htmlKey && r.htmlCodec
            ? { id: r.id, jobId: r.jobId, key: r.htmlKey, codec: r.htmlCodec, size: r.htmlSize }
            : null,
      )
      .find((r) => r !== null);
    if (!kept) return { firing: false, summary: "no kept body to probe", details: {} };
    const probedAt = new Date().toISOString();
    let timer: NodeJS.Timeout | undefined;
    const noAnswer = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), BODY_PROBE_TIMEOUT_MS);
      timer.unref();
    });
    try {
      const answer = await Promise.race([readBody(kept.key, kept.codec, kept.size), noAnswer]);
      const down = answer === "timeout";
      if (down) countBodyUnavailable();
      return {
        firing: down,
        summary: down
          ? `the body store gave no answer in ${BODY_PROBE_TIMEOUT_MS / 1000} s to a read of a kept body (result ${kept.id} of job ${kept.jobId}): results show body_unavailable`
          : "the body store answers",
        details: { resultId: kept.id, jobId: kept.jobId, probedAt, ...(down ? { code: "body_unavailable" } : {}) },
      };
    } catch (err) {
      if (isBodyError(err)) return { firing: false, summary: "the body store answers", details: { probedAt } };
      if (!isBodyUnavailable(err)) throw err;
      // Counted as a reader's would be: with no one reading, tally_body_unavailable_total still moves.
      countBodyUnavailable();
      // The plain words only: the store's location and its error are in the log and the metrics.
      return {
        firing: true,
        summary: `the body store did not answer a read of a kept body (result ${kept.id} of job ${kept.jobId}): results show body_unavailable until it does`,
        details: { resultId: kept.id, jobId: kept.jobId, probedAt, code: "body_unavailable" },
      };
    } finally {
      clearTimeout(timer);
    }
  },
};
