-- CreateTable
CREATE TABLE "AlertState" (
    "rule" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'ok',
    "since" TIMESTAMP(3),
    "lastNotifiedAt" TIMESTAMP(3),
    "summary" TEXT,
    "details" TEXT,
    "evaluatedAt" TIMESTAMP(3),

    CONSTRAINT "AlertState_pkey" PRIMARY KEY ("rule")
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" SERIAL NOT NULL,
    "rule" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'alert',
    "summary" TEXT NOT NULL,
    "details" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertNotification" (
    "id" SERIAL NOT NULL,
    "eventId" INTEGER NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertNotification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlatformCallMinute" (
    "minute" TIMESTAMP(3) NOT NULL,
    "statusClass" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "PlatformCallMinute_pkey" PRIMARY KEY ("minute","statusClass")
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

-- AddForeignKey
ALTER TABLE "AlertNotification" ADD CONSTRAINT "AlertNotification_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "AlertEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

