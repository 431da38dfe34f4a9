-- CreateIndex
CREATE INDEX "Job_outcomeAt_idx" ON "Job"("outcomeAt");

