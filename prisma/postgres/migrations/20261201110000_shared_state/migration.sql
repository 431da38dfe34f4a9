-- CreateTable
CREATE TABLE "PlatformBudget" (
    "key" TEXT NOT NULL,
    "nextAt" BIGINT NOT NULL DEFAULT 0,
    "granted" INTEGER NOT NULL DEFAULT 0,
    "pausedUntil" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "PlatformBudget_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "LoginThrottle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "windowStart" BIGINT NOT NULL,

    CONSTRAINT "LoginThrottle_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "LoginThrottle_windowStart_idx" ON "LoginThrottle"("windowStart");

