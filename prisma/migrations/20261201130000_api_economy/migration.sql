-- CreateTable
CREATE TABLE "ReconcileWatermark" (
    "kind" TEXT NOT NULL PRIMARY KEY,
    "createdFrom" DATETIME,
    "lastFullScanAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiCallMinute" (
    "minute" DATETIME NOT NULL,
    "endpoint" TEXT NOT NULL,
    "purpose" TEXT NOT NULL DEFAULT 'other',
    "answer" TEXT NOT NULL DEFAULT '2xx',
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("minute", "endpoint", "purpose", "answer")
);
INSERT INTO "new_ApiCallMinute" ("count", "endpoint", "minute") SELECT "count", "endpoint", "minute" FROM "ApiCallMinute";
DROP TABLE "ApiCallMinute";
ALTER TABLE "new_ApiCallMinute" RENAME TO "ApiCallMinute";
CREATE INDEX "ApiCallMinute_minute_idx" ON "ApiCallMinute"("minute");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

