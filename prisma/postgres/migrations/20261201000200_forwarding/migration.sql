-- CreateTable
CREATE TABLE "Destination" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "secretLast4" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'api',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT,
    "disabledBy" TEXT,
    "disabledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Destination_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboundDelivery" (
    "id" SERIAL NOT NULL,
    "destinationId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "replays" INTEGER NOT NULL DEFAULT 0,
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "lastLatencyMs" INTEGER,
    "nextAttemptAt" TIMESTAMP(3),
    "retryUntil" TIMESTAMP(3) NOT NULL,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OutboundDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboundAttempt" (
    "id" SERIAL NOT NULL,
    "deliveryId" INTEGER NOT NULL,
    "destinationId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "latencyMs" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OutboundAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Destination_enabled_idx" ON "Destination"("enabled");

-- CreateIndex
CREATE INDEX "OutboundDelivery_destinationId_status_createdAt_idx" ON "OutboundDelivery"("destinationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "OutboundDelivery_status_id_idx" ON "OutboundDelivery"("status", "id");

-- CreateIndex
CREATE INDEX "OutboundDelivery_jobId_idx" ON "OutboundDelivery"("jobId");

-- CreateIndex
CREATE INDEX "OutboundDelivery_createdAt_idx" ON "OutboundDelivery"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "OutboundDelivery_destinationId_eventId_key" ON "OutboundDelivery"("destinationId", "eventId");

-- CreateIndex
CREATE INDEX "OutboundAttempt_deliveryId_id_idx" ON "OutboundAttempt"("deliveryId", "id");

-- CreateIndex
CREATE INDEX "OutboundAttempt_destinationId_at_idx" ON "OutboundAttempt"("destinationId", "at");

-- CreateIndex
CREATE INDEX "OutboundAttempt_at_idx" ON "OutboundAttempt"("at");

-- AddForeignKey
ALTER TABLE "OutboundDelivery" ADD CONSTRAINT "OutboundDelivery_destinationId_fkey" FOREIGN KEY ("destinationId") REFERENCES "Destination"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OutboundAttempt" ADD CONSTRAINT "OutboundAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "OutboundDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

