-- AlterTable
ALTER TABLE "Result" ADD COLUMN     "bodyRemovedAt" TIMESTAMP(3),
ADD COLUMN     "htmlCodec" TEXT,
ADD COLUMN     "htmlKey" TEXT,
ADD COLUMN     "htmlSize" INTEGER,
ADD COLUMN     "markdownCodec" TEXT,
ADD COLUMN     "markdownKey" TEXT,
ADD COLUMN     "markdownSize" INTEGER;
