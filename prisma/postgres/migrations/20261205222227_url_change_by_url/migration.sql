-- CreateIndex
CREATE INDEX "UrlChange_runId_url_idx" ON "UrlChange"("runId", "url");
