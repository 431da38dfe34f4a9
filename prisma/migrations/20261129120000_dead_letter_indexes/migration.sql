-- CreateIndex
CREATE INDEX "DeadLetter_createdAt_idx" ON "DeadLetter"("createdAt");

-- CreateIndex
CREATE INDEX "DeadLetter_kind_createdAt_idx" ON "DeadLetter"("kind", "createdAt");

-- CreateIndex
CREATE INDEX "DeadLetter_errorCode_createdAt_idx" ON "DeadLetter"("errorCode", "createdAt");

