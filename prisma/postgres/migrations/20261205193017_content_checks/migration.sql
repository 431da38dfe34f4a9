-- AlterTable
ALTER TABLE "Collection" ADD COLUMN     "checks" TEXT,
ADD COLUMN     "escalation" TEXT,
ADD COLUMN     "maxTokens" INTEGER,
ADD COLUMN     "monthlyMaxTokens" INTEGER;

-- AlterTable
ALTER TABLE "Result" ADD COLUMN     "checkExcerpt" TEXT,
ADD COLUMN     "checkName" TEXT,
ADD COLUMN     "checkVerdict" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "capReason" TEXT,
ADD COLUMN     "checks" TEXT,
ADD COLUMN     "escalation" TEXT,
ADD COLUMN     "maxTokens" INTEGER,
ADD COLUMN     "suspect" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tokensCharged" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tokensReserved" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "RunChunk" ADD COLUMN     "reserved" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rung" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tokensCharged" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "RunUrl" ADD COLUMN     "checkExcerpt" TEXT,
ADD COLUMN     "checkName" TEXT,
ADD COLUMN     "rung" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rungAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rungsTried" TEXT,
ADD COLUMN     "tokensCharged" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "CollectionRung" (
    "collectionId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "rung" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CollectionRung_pkey" PRIMARY KEY ("collectionId","url")
);

-- CreateIndex
CREATE INDEX "RunUrl_runId_state_rung_position_idx" ON "RunUrl"("runId", "state", "rung", "position");
