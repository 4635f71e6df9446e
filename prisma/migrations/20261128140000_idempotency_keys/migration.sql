-- The Idempotency-Key of REST requests (src/kernel/idempotency.ts): one row per token and key, claimed by the first
-- request that carries it, then holding that request's answer, sealed, for its retries until it expires.
-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "tokenId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "claim" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "status" INTEGER,
    "answer" TEXT,
    "claimedAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("tokenId","key")
);

-- CreateIndex
CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey"("expiresAt");

-- AddForeignKey
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "ApiToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;
