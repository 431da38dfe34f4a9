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
    "downFailures" INTEGER NOT NULL DEFAULT 0,
    "downBy" TEXT NOT NULL DEFAULT '',
    "downReason" TEXT NOT NULL DEFAULT '',
    "probeAt" BIGINT NOT NULL DEFAULT 0,
    "probeBy" TEXT NOT NULL DEFAULT '',
    "probeUntil" BIGINT NOT NULL DEFAULT 0,
    "upAt" BIGINT NOT NULL DEFAULT 0,
    "upBy" TEXT NOT NULL DEFAULT ''
);
INSERT INTO "new_PlatformBudget" ("downFailureAt", "downFailures", "downSince", "granted", "key", "nextAt", "pausedUntil") SELECT "downFailureAt", "downFailures", "downSince", "granted", "key", "nextAt", "pausedUntil" FROM "PlatformBudget";
DROP TABLE "PlatformBudget";
ALTER TABLE "new_PlatformBudget" RENAME TO "PlatformBudget";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
