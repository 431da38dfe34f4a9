-- CreateTable
CREATE TABLE "PlatformBudget" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "nextAt" BIGINT NOT NULL DEFAULT 0,
    "granted" INTEGER NOT NULL DEFAULT 0,
    "pausedUntil" BIGINT NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "LoginThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL,
    "windowStart" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "LoginThrottle_windowStart_idx" ON "LoginThrottle"("windowStart");

