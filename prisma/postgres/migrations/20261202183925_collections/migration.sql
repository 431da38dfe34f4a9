-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "changeRules" TEXT,
ADD COLUMN     "changesChanged" INTEGER,
ADD COLUMN     "changesGone" INTEGER,
ADD COLUMN     "changesNew" INTEGER,
ADD COLUMN     "changesState" TEXT,
ADD COLUMN     "changesUnchanged" INTEGER,
ADD COLUMN     "collectionId" TEXT,
ADD COLUMN     "trigger" TEXT;

-- AlterTable
ALTER TABLE "RunUrl" ADD COLUMN     "fingerprint" TEXT,
ADD COLUMN     "resultId" INTEGER;

-- CreateTable
CREATE TABLE "Collection" (
    "id" TEXT NOT NULL,
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
    "nextRunAt" TIMESTAMP(3),
    "queuedFor" TIMESTAMP(3),
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Collection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CollectionTick" (
    "id" TEXT NOT NULL,
    "collectionId" TEXT NOT NULL,
    "scheduledFor" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "runId" TEXT,
    "reason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CollectionTick_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UrlChange" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "resultId" INTEGER,
    "previousResultId" INTEGER,

    CONSTRAINT "UrlChange_pkey" PRIMARY KEY ("runId","seq")
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
