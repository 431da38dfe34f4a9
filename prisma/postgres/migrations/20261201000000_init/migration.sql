-- CreateTable
CREATE TABLE "Subscription" (
    "id" TEXT NOT NULL,
    "platformId" TEXT,
    "eventType" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "scheme" TEXT NOT NULL DEFAULT 'hmac',
    "secret" TEXT,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" TIMESTAMP(3),
    "rotatedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Subscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SecretRotation" (
    "id" SERIAL NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "runId" TEXT,

    CONSTRAINT "SecretRotation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT,
    "request" TEXT,
    "platformStatus" TEXT NOT NULL DEFAULT 'unknown',
    "outcome" TEXT NOT NULL DEFAULT 'pending',
    "origin" TEXT NOT NULL DEFAULT 'submitted',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "chainDepth" INTEGER NOT NULL DEFAULT 0,
    "resubmittedAsId" TEXT,
    "resubmittedFromId" TEXT,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "errorRetryable" BOOLEAN,
    "tokensCharged" INTEGER,
    "resultCount" INTEGER NOT NULL DEFAULT 0,
    "nextPollAt" TIMESTAMP(3),
    "pollCount" INTEGER NOT NULL DEFAULT 0,
    "pollDeadlineAt" TIMESTAMP(3),
    "pollExpiredAt" TIMESTAMP(3),
    "lastWebhookAt" TIMESTAMP(3),
    "platformCreatedAt" TIMESTAMP(3),
    "settledAt" TIMESTAMP(3),
    "outcomeAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JobEvent" (
    "id" SERIAL NOT NULL,
    "jobId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "detail" TEXT,

    CONSTRAINT "JobEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Receipt" (
    "jobId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "deliveryId" TEXT,
    "subscriptionId" TEXT,
    "source" TEXT NOT NULL DEFAULT 'webhook',
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Receipt_pkey" PRIMARY KEY ("jobId")
);

-- CreateTable
CREATE TABLE "InboundDelivery" (
    "id" SERIAL NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "subscriptionId" TEXT,
    "deliveryId" TEXT,
    "eventType" TEXT,
    "jobId" TEXT,
    "status" INTEGER NOT NULL,
    "reason" TEXT,
    "latencyMs" INTEGER NOT NULL,
    "bodyBytes" INTEGER NOT NULL,

    CONSTRAINT "InboundDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QueueItem" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "jobId" TEXT,
    "dedupeKey" TEXT,
    "state" TEXT NOT NULL DEFAULT 'ready',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 10,
    "availableAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "doneAt" TIMESTAMP(3),

    CONSTRAINT "QueueItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Result" (
    "id" SERIAL NOT NULL,
    "jobId" TEXT NOT NULL,
    "itemKey" TEXT NOT NULL,
    "url" TEXT,
    "status" TEXT NOT NULL DEFAULT 'completed',
    "format" TEXT NOT NULL,
    "markdown" TEXT,
    "html" TEXT,
    "metadata" TEXT,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "tokensCharged" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Result_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeadLetter" (
    "id" SERIAL NOT NULL,
    "jobId" TEXT,
    "queueItemId" INTEGER,
    "kind" TEXT NOT NULL,
    "errorCode" TEXT,
    "errorMessage" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'open',
    "resolution" TEXT,
    "resolvedBy" TEXT,
    "resolvedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DeadLetter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlatformDelivery" (
    "id" TEXT NOT NULL,
    "subscriptionId" TEXT,
    "webhookId" TEXT NOT NULL,
    "eventType" TEXT,
    "jobId" TEXT,
    "attemptNumber" INTEGER NOT NULL DEFAULT 1,
    "status" TEXT NOT NULL,
    "httpStatus" INTEGER,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlatformDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OperationRun" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'running',
    "lockKey" TEXT,
    "params" TEXT,
    "progress" TEXT,
    "summary" TEXT,
    "error" TEXT,
    "startedBy" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "OperationRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "detail" TEXT,
    "ok" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiCallMinute" (
    "minute" TIMESTAMP(3) NOT NULL,
    "endpoint" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ApiCallMinute_pkey" PRIMARY KEY ("minute","endpoint")
);

-- CreateIndex
CREATE UNIQUE INDEX "Subscription_platformId_key" ON "Subscription"("platformId");

-- CreateIndex
CREATE INDEX "Subscription_eventType_idx" ON "Subscription"("eventType");

-- CreateIndex
CREATE INDEX "SecretRotation_subscriptionId_at_idx" ON "SecretRotation"("subscriptionId", "at");

-- CreateIndex
CREATE INDEX "SecretRotation_at_idx" ON "SecretRotation"("at");

-- CreateIndex
CREATE UNIQUE INDEX "Job_resubmittedAsId_key" ON "Job"("resubmittedAsId");

-- CreateIndex
CREATE INDEX "Job_createdAt_id_idx" ON "Job"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Job_outcome_createdAt_idx" ON "Job"("outcome", "createdAt");

-- CreateIndex
CREATE INDEX "Job_platformStatus_createdAt_idx" ON "Job"("platformStatus", "createdAt");

-- CreateIndex
CREATE INDEX "Job_kind_createdAt_idx" ON "Job"("kind", "createdAt");

-- CreateIndex
CREATE INDEX "Job_nextPollAt_idx" ON "Job"("nextPollAt");

-- CreateIndex
CREATE INDEX "Job_url_idx" ON "Job"("url");

-- CreateIndex
CREATE INDEX "Job_resubmittedFromId_idx" ON "Job"("resubmittedFromId");

-- CreateIndex
CREATE INDEX "JobEvent_jobId_at_idx" ON "JobEvent"("jobId", "at");

-- CreateIndex
CREATE INDEX "InboundDelivery_receivedAt_idx" ON "InboundDelivery"("receivedAt");

-- CreateIndex
CREATE INDEX "InboundDelivery_status_receivedAt_idx" ON "InboundDelivery"("status", "receivedAt");

-- CreateIndex
CREATE INDEX "InboundDelivery_subscriptionId_receivedAt_idx" ON "InboundDelivery"("subscriptionId", "receivedAt");

-- CreateIndex
CREATE INDEX "InboundDelivery_jobId_idx" ON "InboundDelivery"("jobId");

-- CreateIndex
CREATE UNIQUE INDEX "QueueItem_dedupeKey_key" ON "QueueItem"("dedupeKey");

-- CreateIndex
CREATE INDEX "QueueItem_state_availableAt_idx" ON "QueueItem"("state", "availableAt");

-- CreateIndex
CREATE INDEX "QueueItem_state_leaseExpiresAt_idx" ON "QueueItem"("state", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "QueueItem_jobId_idx" ON "QueueItem"("jobId");

-- CreateIndex
CREATE INDEX "Result_createdAt_idx" ON "Result"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Result_jobId_itemKey_key" ON "Result"("jobId", "itemKey");

-- CreateIndex
CREATE INDEX "DeadLetter_state_createdAt_idx" ON "DeadLetter"("state", "createdAt");

-- CreateIndex
CREATE INDEX "DeadLetter_createdAt_idx" ON "DeadLetter"("createdAt");

-- CreateIndex
CREATE INDEX "DeadLetter_kind_createdAt_idx" ON "DeadLetter"("kind", "createdAt");

-- CreateIndex
CREATE INDEX "DeadLetter_errorCode_createdAt_idx" ON "DeadLetter"("errorCode", "createdAt");

-- CreateIndex
CREATE INDEX "DeadLetter_jobId_idx" ON "DeadLetter"("jobId");

-- CreateIndex
CREATE INDEX "PlatformDelivery_webhookId_createdAt_idx" ON "PlatformDelivery"("webhookId", "createdAt");

-- CreateIndex
CREATE INDEX "PlatformDelivery_httpStatus_createdAt_idx" ON "PlatformDelivery"("httpStatus", "createdAt");

-- CreateIndex
CREATE INDEX "PlatformDelivery_jobId_idx" ON "PlatformDelivery"("jobId");

-- CreateIndex
CREATE INDEX "PlatformDelivery_createdAt_idx" ON "PlatformDelivery"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "OperationRun_lockKey_key" ON "OperationRun"("lockKey");

-- CreateIndex
CREATE INDEX "OperationRun_kind_startedAt_idx" ON "OperationRun"("kind", "startedAt");

-- CreateIndex
CREATE INDEX "OperationRun_startedAt_idx" ON "OperationRun"("startedAt");

-- CreateIndex
CREATE INDEX "AuditLog_at_idx" ON "AuditLog"("at");

-- CreateIndex
CREATE INDEX "AuditLog_action_at_idx" ON "AuditLog"("action", "at");

-- AddForeignKey
ALTER TABLE "SecretRotation" ADD CONSTRAINT "SecretRotation_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

