-- AlterTable
ALTER TABLE "Result" ADD COLUMN     "txid" xid8 DEFAULT pg_current_xact_id();

-- CreateIndex
CREATE INDEX "Result_txid_id_idx" ON "Result"("txid", "id");

