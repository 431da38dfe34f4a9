-- AlterTable
ALTER TABLE "ApiCallMinute" DROP CONSTRAINT "ApiCallMinute_pkey",
ADD COLUMN     "answer" TEXT NOT NULL DEFAULT '2xx',
ADD COLUMN     "purpose" TEXT NOT NULL DEFAULT 'other',
ADD CONSTRAINT "ApiCallMinute_pkey" PRIMARY KEY ("minute", "endpoint", "purpose", "answer");

-- CreateTable
CREATE TABLE "ReconcileWatermark" (
    "kind" TEXT NOT NULL,
    "createdFrom" TIMESTAMP(3),
    "lastFullScanAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReconcileWatermark_pkey" PRIMARY KEY ("kind")
);

-- CreateIndex
CREATE INDEX "ApiCallMinute_minute_idx" ON "ApiCallMinute"("minute");

