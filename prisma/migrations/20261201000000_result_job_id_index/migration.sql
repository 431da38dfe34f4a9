-- CreateIndex
CREATE INDEX "Result_jobId_id_idx" ON "Result"("jobId", "id");
