-- CreateTable
CREATE TABLE "ScheduleLease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "lastRunAt" DATETIME NOT NULL,
    "holder" TEXT,
    "lockedUntil" DATETIME NOT NULL
);

