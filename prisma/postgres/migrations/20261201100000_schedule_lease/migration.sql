-- CreateTable
CREATE TABLE "ScheduleLease" (
    "name" TEXT NOT NULL,
    "lastRunAt" TIMESTAMP(3) NOT NULL,
    "holder" TEXT,
    "lockedUntil" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ScheduleLease_pkey" PRIMARY KEY ("name")
);

