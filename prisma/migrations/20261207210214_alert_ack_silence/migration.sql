-- AlterTable
ALTER TABLE "AlertEvent" ADD COLUMN "suppressed" TEXT;

-- AlterTable
ALTER TABLE "AlertState" ADD COLUMN "acknowledgedAt" DATETIME;
ALTER TABLE "AlertState" ADD COLUMN "acknowledgedBy" TEXT;
ALTER TABLE "AlertState" ADD COLUMN "silenceNote" TEXT;
ALTER TABLE "AlertState" ADD COLUMN "silencedBy" TEXT;
ALTER TABLE "AlertState" ADD COLUMN "silencedUntil" DATETIME;
