-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "capHit" TEXT,
ADD COLUMN     "capLimit" INTEGER,
ADD COLUMN     "capUsed" INTEGER,
ADD COLUMN     "capWanted" INTEGER;
