-- CreateTable
CREATE TABLE "BodySweepMark" (
    "key" TEXT NOT NULL,
    "markedAt" BIGINT NOT NULL,

    CONSTRAINT "BodySweepMark_pkey" PRIMARY KEY ("key")
);
