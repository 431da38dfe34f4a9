-- AlterTable
ALTER TABLE "Destination" ADD COLUMN     "config" TEXT,
ADD COLUMN     "type" TEXT NOT NULL DEFAULT 'webhook';
