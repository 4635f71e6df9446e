-- Import runs (GitBook's imports tag): a website imported into a change request by a background job.
-- CreateEnum
CREATE TYPE "ImportRunStatus" AS ENUM ('pending', 'in_progress', 'completed', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "ImportRun" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "pageId" TEXT,
    "siteId" TEXT,
    "sourceURL" TEXT NOT NULL,
    "status" "ImportRunStatus" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "pages" JSONB NOT NULL DEFAULT '[]',
    "createdById" TEXT NOT NULL,
    "jobId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ImportRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ImportRun_organizationId_createdAt_id_idx" ON "ImportRun"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ImportRun_spaceId_idx" ON "ImportRun"("spaceId");

-- CreateIndex
CREATE INDEX "ImportRun_changeRequestId_idx" ON "ImportRun"("changeRequestId");

-- CreateIndex
CREATE INDEX "ImportRun_siteId_idx" ON "ImportRun"("siteId");

-- CreateIndex
CREATE INDEX "ImportRun_createdById_idx" ON "ImportRun"("createdById");

-- CreateIndex
CREATE INDEX "ImportRun_status_updatedAt_idx" ON "ImportRun"("status", "updatedAt");

-- AddForeignKey
ALTER TABLE "ImportRun" ADD CONSTRAINT "ImportRun_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportRun" ADD CONSTRAINT "ImportRun_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportRun" ADD CONSTRAINT "ImportRun_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportRun" ADD CONSTRAINT "ImportRun_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportRun" ADD CONSTRAINT "ImportRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
