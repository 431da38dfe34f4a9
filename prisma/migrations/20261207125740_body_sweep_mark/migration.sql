-- CreateTable
CREATE TABLE "BodySweepMark" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "markedAt" BIGINT NOT NULL
);
