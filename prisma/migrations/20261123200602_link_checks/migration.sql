-- CreateTable
CREATE TABLE "LinkCheck" (
    "url" TEXT NOT NULL,
    "status" TEXT,
    "httpStatus" INTEGER,
    "error" TEXT,
    "checkedAt" TIMESTAMP(3),
    "dueAt" TIMESTAMP(3),

    CONSTRAINT "LinkCheck_pkey" PRIMARY KEY ("url")
);

-- CreateIndex
CREATE INDEX "LinkCheck_dueAt_idx" ON "LinkCheck"("dueAt");

-- CreateIndex
CREATE INDEX "BackgroundJob_kind_state_idx" ON "BackgroundJob"("kind", "state");

-- CreateIndex
CREATE INDEX "PageLink_target_idx" ON "PageLink" USING HASH ("target");

-- Hand-written (Prisma does not model CHECK constraints): the statuses a check records, and URLs short enough for
-- the primary key's B-tree (longer ones are not checked).
ALTER TABLE "LinkCheck" ADD CONSTRAINT "LinkCheck_status" CHECK (status IN ('ok', 'broken', 'skipped'));
ALTER TABLE "LinkCheck" ADD CONSTRAINT "LinkCheck_url_length" CHECK (length(url) <= 2048);

-- The URLs linked before checks existed are due now; the scheduler enqueues their check at start-up.
INSERT INTO "LinkCheck" (url, "dueAt")
SELECT DISTINCT target, CURRENT_TIMESTAMP FROM "PageLink" WHERE kind = 'url' AND length(target) <= 2048;
