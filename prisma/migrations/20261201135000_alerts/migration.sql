-- CreateTable
CREATE TABLE "AlertState" (
    "rule" TEXT NOT NULL PRIMARY KEY,
    "state" TEXT NOT NULL DEFAULT 'ok',
    "since" DATETIME,
    "lastNotifiedAt" DATETIME,
    "summary" TEXT,
    "details" TEXT,
    "evaluatedAt" DATETIME
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "rule" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'alert',
    "summary" TEXT NOT NULL,
    "details" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "AlertNotification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "eventId" INTEGER NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AlertNotification_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "AlertEvent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PlatformCallMinute" (
    "minute" DATETIME NOT NULL,
    "statusClass" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("minute", "statusClass")
);

-- CreateIndex
CREATE INDEX "AlertEvent_at_idx" ON "AlertEvent"("at");

-- CreateIndex
CREATE INDEX "AlertEvent_rule_at_idx" ON "AlertEvent"("rule", "at");

-- CreateIndex
CREATE INDEX "AlertNotification_status_nextAttemptAt_idx" ON "AlertNotification"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "AlertNotification_eventId_idx" ON "AlertNotification"("eventId");

-- CreateIndex
CREATE INDEX "AlertNotification_channel_id_idx" ON "AlertNotification"("channel", "id");

-- CreateIndex
CREATE INDEX "PlatformCallMinute_minute_idx" ON "PlatformCallMinute"("minute");

