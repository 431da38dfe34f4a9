-- AlterTable
ALTER TABLE "AlertEvent" ADD COLUMN     "suppressed" TEXT;

-- AlterTable
ALTER TABLE "AlertState" ADD COLUMN     "acknowledgedAt" TIMESTAMP(3),
ADD COLUMN     "acknowledgedBy" TEXT,
ADD COLUMN     "silenceNote" TEXT,
ADD COLUMN     "silencedBy" TEXT,
ADD COLUMN     "silencedUntil" TIMESTAMP(3);
