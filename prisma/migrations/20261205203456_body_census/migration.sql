-- CreateTable
CREATE TABLE "BodyCensus" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "countedAt" DATETIME NOT NULL,
    "objects" INTEGER NOT NULL,
    "storedBytes" BIGINT NOT NULL,
    "referenced" INTEGER NOT NULL,
    "distinctBytes" BIGINT NOT NULL,
    "rowsBytes" BIGINT NOT NULL
);
