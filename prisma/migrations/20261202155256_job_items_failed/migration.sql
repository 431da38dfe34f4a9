-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "url" TEXT,
    "request" TEXT,
    "platformStatus" TEXT NOT NULL DEFAULT 'unknown',
    "outcome" TEXT NOT NULL DEFAULT 'pending',
    "origin" TEXT NOT NULL DEFAULT 'submitted',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "chainDepth" INTEGER NOT NULL DEFAULT 0,
    "resubmittedAsId" TEXT,
    "resubmittedFromId" TEXT,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "errorRetryable" BOOLEAN,
    "tokensCharged" INTEGER,
    "resultCount" INTEGER NOT NULL DEFAULT 0,
    "itemsFailed" INTEGER NOT NULL DEFAULT 0,
    "nextPollAt" DATETIME,
    "pollCount" INTEGER NOT NULL DEFAULT 0,
    "pollDeadlineAt" DATETIME,
    "pollExpiredAt" DATETIME,
    "lastWebhookAt" DATETIME,
    "platformCreatedAt" DATETIME,
    "settledAt" DATETIME,
    "outcomeAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Job" ("attempts", "chainDepth", "createdAt", "errorCode", "errorMessage", "errorRetryable", "id", "kind", "lastWebhookAt", "nextPollAt", "origin", "outcome", "outcomeAt", "platformCreatedAt", "platformStatus", "pollCount", "pollDeadlineAt", "pollExpiredAt", "request", "resubmittedAsId", "resubmittedFromId", "resultCount", "settledAt", "tokensCharged", "updatedAt", "url") SELECT "attempts", "chainDepth", "createdAt", "errorCode", "errorMessage", "errorRetryable", "id", "kind", "lastWebhookAt", "nextPollAt", "origin", "outcome", "outcomeAt", "platformCreatedAt", "platformStatus", "pollCount", "pollDeadlineAt", "pollExpiredAt", "request", "resubmittedAsId", "resubmittedFromId", "resultCount", "settledAt", "tokensCharged", "updatedAt", "url" FROM "Job";
DROP TABLE "Job";
ALTER TABLE "new_Job" RENAME TO "Job";
CREATE UNIQUE INDEX "Job_resubmittedAsId_key" ON "Job"("resubmittedAsId");
CREATE INDEX "Job_createdAt_id_idx" ON "Job"("createdAt", "id");
CREATE INDEX "Job_outcome_createdAt_idx" ON "Job"("outcome", "createdAt");
CREATE INDEX "Job_platformStatus_createdAt_idx" ON "Job"("platformStatus", "createdAt");
CREATE INDEX "Job_kind_createdAt_idx" ON "Job"("kind", "createdAt");
CREATE INDEX "Job_nextPollAt_idx" ON "Job"("nextPollAt");
CREATE INDEX "Job_url_idx" ON "Job"("url");
CREATE INDEX "Job_resubmittedFromId_idx" ON "Job"("resubmittedFromId");
CREATE INDEX "Job_outcomeAt_resultCount_itemsFailed_idx" ON "Job"("outcomeAt", "resultCount", "itemsFailed");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Backfill: the failed items of batch and crawl jobs already stored (each a walk of the job's own results).
UPDATE "Job" SET "itemsFailed" = (
    SELECT COUNT(*) FROM "Result" r WHERE r."jobId" = "Job"."id" AND r."status" = 'failed'
) WHERE "kind" <> 'extract' AND "outcome" = 'stored';
