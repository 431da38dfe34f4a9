-- Runs (issue 24): a list of URLs as one unit, its URLs and the chunks that carry them to the platform.
-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunUrl" (
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
    "storedAt" TIMESTAMP(3),

    CONSTRAINT "RunUrl_pkey" PRIMARY KEY ("runId","position")
);

-- CreateTable
CREATE TABLE "RunChunk" (
    "id" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "firstUrl" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'recorded',
    "jobId" TEXT,
    "postAttempts" INTEGER NOT NULL DEFAULT 0,
    "postedAt" TIMESTAMP(3),
    "submittedAt" TIMESTAMP(3),
    "settledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Run_createdAt_id_idx" ON "Run"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Run_state_idx" ON "Run"("state");

-- CreateIndex
CREATE INDEX "RunUrl_runId_state_position_idx" ON "RunUrl"("runId", "state", "position");

-- CreateIndex
CREATE INDEX "RunUrl_chunkId_idx" ON "RunUrl"("chunkId");

-- CreateIndex
CREATE UNIQUE INDEX "RunChunk_jobId_key" ON "RunChunk"("jobId");

-- CreateIndex
CREATE INDEX "RunChunk_runId_state_idx" ON "RunChunk"("runId", "state");

-- CreateIndex
CREATE INDEX "RunChunk_firstUrl_idx" ON "RunChunk"("firstUrl");

-- CreateIndex
CREATE UNIQUE INDEX "RunChunk_runId_seq_key" ON "RunChunk"("runId", "seq");

