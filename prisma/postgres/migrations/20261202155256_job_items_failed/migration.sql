-- DropIndex
DROP INDEX "Job_outcomeAt_idx";

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "itemsFailed" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Job_outcomeAt_resultCount_itemsFailed_idx" ON "Job"("outcomeAt", "resultCount", "itemsFailed");

-- Backfill: the failed items of batch and crawl jobs already stored (each a walk of the job's own results).
UPDATE "Job" SET "itemsFailed" = (
    SELECT COUNT(*) FROM "Result" r WHERE r."jobId" = "Job"."id" AND r."status" = 'failed'
) WHERE "kind" <> 'extract' AND "outcome" = 'stored';
