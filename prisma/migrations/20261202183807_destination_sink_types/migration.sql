-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Destination" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL DEFAULT 'webhook',
    "url" TEXT NOT NULL,
    "config" TEXT,
    "events" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "secretLast4" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'api',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT,
    "disabledBy" TEXT,
    "disabledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Destination" ("createdAt", "createdBy", "disabledAt", "disabledBy", "enabled", "events", "id", "secret", "secretLast4", "source", "updatedAt", "url") SELECT "createdAt", "createdBy", "disabledAt", "disabledBy", "enabled", "events", "id", "secret", "secretLast4", "source", "updatedAt", "url" FROM "Destination";
DROP TABLE "Destination";
ALTER TABLE "new_Destination" RENAME TO "Destination";
CREATE INDEX "Destination_enabled_idx" ON "Destination"("enabled");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
