-- AlterTable
ALTER TABLE "QueueItem" ADD COLUMN "traceContext" TEXT;
