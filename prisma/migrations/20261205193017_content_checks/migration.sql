-- AlterTable
ALTER TABLE "Collection" ADD COLUMN "checks" TEXT;
ALTER TABLE "Collection" ADD COLUMN "escalation" TEXT;
ALTER TABLE "Collection" ADD COLUMN "maxTokens" INTEGER;
ALTER TABLE "Collection" ADD COLUMN "monthlyMaxTokens" INTEGER;

-- AlterTable
ALTER TABLE "Result" ADD COLUMN "checkExcerpt" TEXT;
ALTER TABLE "Result" ADD COLUMN "checkName" TEXT;
ALTER TABLE "Result" ADD COLUMN "checkVerdict" TEXT;

-- CreateTable
CREATE TABLE "CollectionRung" (
    "collectionId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "rung" INTEGER NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("collectionId", "url")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'active',
    "total" INTEGER NOT NULL,
    "invalid" INTEGER NOT NULL DEFAULT 0,
    "duplicates" INTEGER NOT NULL DEFAULT 0,
    "batchSize" INTEGER NOT NULL,
    "request" TEXT NOT NULL,
    "pending" INTEGER NOT NULL DEFAULT 0,
    "submitted" INTEGER NOT NULL DEFAULT 0,
    "stored" INTEGER NOT NULL DEFAULT 0,
    "retrying" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "chunksTotal" INTEGER NOT NULL DEFAULT 0,
    "chunksSubmitted" INTEGER NOT NULL DEFAULT 0,
    "duplicateSubmits" INTEGER NOT NULL DEFAULT 0,
    "platformCalls" INTEGER NOT NULL DEFAULT 0,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    "collectionId" TEXT,
    "trigger" TEXT,
    "changeRules" TEXT,
    "changesState" TEXT,
    "changesNew" INTEGER,
    "changesChanged" INTEGER,
    "changesUnchanged" INTEGER,
    "changesGone" INTEGER,
    "checks" TEXT,
    "escalation" TEXT,
    "maxTokens" INTEGER,
    "suspect" INTEGER NOT NULL DEFAULT 0,
    "tokensCharged" INTEGER NOT NULL DEFAULT 0,
    "tokensReserved" INTEGER NOT NULL DEFAULT 0,
    "capReason" TEXT
);
INSERT INTO "new_Run" ("batchSize", "changeRules", "changesChanged", "changesGone", "changesNew", "changesState", "changesUnchanged", "chunksSubmitted", "chunksTotal", "collectionId", "completedAt", "createdAt", "createdBy", "duplicateSubmits", "duplicates", "failed", "id", "invalid", "name", "pending", "platformCalls", "request", "retrying", "startedAt", "state", "stored", "submitted", "total", "trigger", "updatedAt") SELECT "batchSize", "changeRules", "changesChanged", "changesGone", "changesNew", "changesState", "changesUnchanged", "chunksSubmitted", "chunksTotal", "collectionId", "completedAt", "createdAt", "createdBy", "duplicateSubmits", "duplicates", "failed", "id", "invalid", "name", "pending", "platformCalls", "request", "retrying", "startedAt", "state", "stored", "submitted", "total", "trigger", "updatedAt" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_createdAt_id_idx" ON "Run"("createdAt", "id");
CREATE INDEX "Run_state_idx" ON "Run"("state");
CREATE INDEX "Run_collectionId_createdAt_idx" ON "Run"("collectionId", "createdAt");
CREATE TABLE "new_RunChunk" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "firstUrl" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'recorded',
    "jobId" TEXT,
    "postAttempts" INTEGER NOT NULL DEFAULT 0,
    "rung" INTEGER NOT NULL DEFAULT 0,
    "reserved" INTEGER NOT NULL DEFAULT 0,
    "tokensCharged" INTEGER NOT NULL DEFAULT 0,
    "postedAt" DATETIME,
    "submittedAt" DATETIME,
    "settledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_RunChunk" ("createdAt", "firstUrl", "id", "jobId", "postAttempts", "postedAt", "runId", "seq", "settledAt", "size", "state", "submittedAt") SELECT "createdAt", "firstUrl", "id", "jobId", "postAttempts", "postedAt", "runId", "seq", "settledAt", "size", "state", "submittedAt" FROM "RunChunk";
DROP TABLE "RunChunk";
ALTER TABLE "new_RunChunk" RENAME TO "RunChunk";
CREATE UNIQUE INDEX "RunChunk_jobId_key" ON "RunChunk"("jobId");
CREATE INDEX "RunChunk_runId_state_idx" ON "RunChunk"("runId", "state");
CREATE INDEX "RunChunk_firstUrl_idx" ON "RunChunk"("firstUrl");
CREATE UNIQUE INDEX "RunChunk_runId_seq_key" ON "RunChunk"("runId", "seq");
CREATE TABLE "new_RunUrl" (
    "runId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "chunkId" INTEGER,
    "jobId" TEXT,
    "itemKey" TEXT,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "storedAt" DATETIME,
    "fingerprint" TEXT,
    "resultId" INTEGER,
    "rung" INTEGER NOT NULL DEFAULT 0,
    "rungAttempts" INTEGER NOT NULL DEFAULT 0,
    "rungsTried" TEXT,
    "tokensCharged" INTEGER NOT NULL DEFAULT 0,
    "checkName" TEXT,
    "checkExcerpt" TEXT,

    PRIMARY KEY ("runId", "position")
);
INSERT INTO "new_RunUrl" ("attempts", "chunkId", "errorCode", "errorMessage", "fingerprint", "itemKey", "jobId", "position", "resultId", "runId", "state", "storedAt", "url") SELECT "attempts", "chunkId", "errorCode", "errorMessage", "fingerprint", "itemKey", "jobId", "position", "resultId", "runId", "state", "storedAt", "url" FROM "RunUrl";
DROP TABLE "RunUrl";
ALTER TABLE "new_RunUrl" RENAME TO "RunUrl";
CREATE INDEX "RunUrl_runId_state_position_idx" ON "RunUrl"("runId", "state", "position");
CREATE INDEX "RunUrl_runId_state_rung_position_idx" ON "RunUrl"("runId", "state", "rung", "position");
CREATE INDEX "RunUrl_runId_url_idx" ON "RunUrl"("runId", "url");
CREATE INDEX "RunUrl_chunkId_idx" ON "RunUrl"("chunkId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
