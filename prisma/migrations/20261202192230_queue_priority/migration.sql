-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_QueueItem" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "jobId" TEXT,
    "dedupeKey" TEXT,
    "state" TEXT NOT NULL DEFAULT 'ready',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 10,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "availableAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "doneAt" DATETIME
);
INSERT INTO "new_QueueItem" ("attempts", "availableAt", "createdAt", "dedupeKey", "doneAt", "id", "jobId", "kind", "lastError", "leaseExpiresAt", "leaseOwner", "maxAttempts", "payload", "state", "updatedAt") SELECT "attempts", "availableAt", "createdAt", "dedupeKey", "doneAt", "id", "jobId", "kind", "lastError", "leaseExpiresAt", "leaseOwner", "maxAttempts", "payload", "state", "updatedAt" FROM "QueueItem";
DROP TABLE "QueueItem";
ALTER TABLE "new_QueueItem" RENAME TO "QueueItem";
CREATE UNIQUE INDEX "QueueItem_dedupeKey_key" ON "QueueItem"("dedupeKey");
CREATE INDEX "QueueItem_state_priority_availableAt_id_idx" ON "QueueItem"("state", "priority", "availableAt", "id");
CREATE INDEX "QueueItem_state_leaseExpiresAt_idx" ON "QueueItem"("state", "leaseExpiresAt");
CREATE INDEX "QueueItem_jobId_idx" ON "QueueItem"("jobId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
