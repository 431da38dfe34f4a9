-- AlterTable
ALTER TABLE "Result" ADD COLUMN "bodyRemovedAt" DATETIME;
ALTER TABLE "Result" ADD COLUMN "htmlCodec" TEXT;
ALTER TABLE "Result" ADD COLUMN "htmlKey" TEXT;
ALTER TABLE "Result" ADD COLUMN "htmlSize" INTEGER;
ALTER TABLE "Result" ADD COLUMN "markdownCodec" TEXT;
ALTER TABLE "Result" ADD COLUMN "markdownKey" TEXT;
ALTER TABLE "Result" ADD COLUMN "markdownSize" INTEGER;
