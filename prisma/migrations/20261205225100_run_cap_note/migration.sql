-- AlterTable
ALTER TABLE "Run" ADD COLUMN "capNote" TEXT;
