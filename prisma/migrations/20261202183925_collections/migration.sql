-- AlterTable
ALTER TABLE "Run" ADD COLUMN "changeRules" TEXT;
ALTER TABLE "Run" ADD COLUMN "changesChanged" INTEGER;
ALTER TABLE "Run" ADD COLUMN "changesGone" INTEGER;
ALTER TABLE "Run" ADD COLUMN "changesNew" INTEGER;
ALTER TABLE "Run" ADD COLUMN "changesState" TEXT;
ALTER TABLE "Run" ADD COLUMN "changesUnchanged" INTEGER;
ALTER TABLE "Run" ADD COLUMN "collectionId" TEXT;
ALTER TABLE "Run" ADD COLUMN "trigger" TEXT;

-- AlterTable
ALTER TABLE "RunUrl" ADD COLUMN "fingerprint" TEXT;
ALTER TABLE "RunUrl" ADD COLUMN "resultId" INTEGER;

-- CreateTable
CREATE TABLE "Collection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "urls" TEXT NOT NULL,
    "urlCount" INTEGER NOT NULL,
    "schedule" TEXT,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "formats" TEXT NOT NULL DEFAULT 'markdown',
    "renderJs" BOOLEAN NOT NULL DEFAULT false,
    "ignorePatterns" TEXT NOT NULL DEFAULT '[]',
    "overlap" TEXT NOT NULL DEFAULT 'skip',
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "nextRunAt" DATETIME,
    "queuedFor" DATETIME,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "CollectionTick" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "collectionId" TEXT NOT NULL,
    "scheduledFor" DATETIME NOT NULL,
    "outcome" TEXT NOT NULL,
    "runId" TEXT,
    "reason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "UrlChange" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "resultId" INTEGER,
    "previousResultId" INTEGER,

    PRIMARY KEY ("runId", "seq")
);

-- CreateIndex
CREATE INDEX "Collection_paused_nextRunAt_idx" ON "Collection"("paused", "nextRunAt");

-- CreateIndex
CREATE INDEX "Collection_createdAt_id_idx" ON "Collection"("createdAt", "id");

-- CreateIndex
CREATE INDEX "CollectionTick_collectionId_createdAt_idx" ON "CollectionTick"("collectionId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CollectionTick_collectionId_scheduledFor_key" ON "CollectionTick"("collectionId", "scheduledFor");

-- CreateIndex
CREATE INDEX "UrlChange_runId_change_seq_idx" ON "UrlChange"("runId", "change", "seq");

-- CreateIndex
CREATE INDEX "Run_collectionId_createdAt_idx" ON "Run"("collectionId", "createdAt");
