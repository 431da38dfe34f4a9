-- CreateTable
CREATE TABLE "BodyCensus" (
    "id" INTEGER NOT NULL,
    "countedAt" TIMESTAMP(3) NOT NULL,
    "objects" INTEGER NOT NULL,
    "storedBytes" BIGINT NOT NULL,
    "referenced" INTEGER NOT NULL,
    "distinctBytes" BIGINT NOT NULL,
    "rowsBytes" BIGINT NOT NULL,

    CONSTRAINT "BodyCensus_pkey" PRIMARY KEY ("id")
);
