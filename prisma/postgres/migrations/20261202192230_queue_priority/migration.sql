-- DropIndex
DROP INDEX "QueueItem_state_availableAt_idx";

-- AlterTable
ALTER TABLE "QueueItem" ADD COLUMN     "priority" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "QueueItem_state_priority_availableAt_id_idx" ON "QueueItem"("state", "priority", "availableAt", "id");
