-- CreateIndex
CREATE INDEX "RunUrl_runId_url_idx" ON "RunUrl"("runId", "url");
