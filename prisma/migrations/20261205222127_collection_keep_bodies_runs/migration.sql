-- AlterTable
ALTER TABLE "Collection" ADD COLUMN "keepBodiesRuns" INTEGER;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "bodiesExpiredAt" DATETIME;
