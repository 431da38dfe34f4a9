-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PlatformBudget" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "nextAt" BIGINT NOT NULL DEFAULT 0,
    "granted" INTEGER NOT NULL DEFAULT 0,
    "pausedUntil" BIGINT NOT NULL DEFAULT 0,
    "downSince" BIGINT NOT NULL DEFAULT 0,
    "downFailureAt" BIGINT NOT NULL DEFAULT 0,
    "downFailures" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_PlatformBudget" ("granted", "key", "nextAt", "pausedUntil") SELECT "granted", "key", "nextAt", "pausedUntil" FROM "PlatformBudget";
DROP TABLE "PlatformBudget";
ALTER TABLE "new_PlatformBudget" RENAME TO "PlatformBudget";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
