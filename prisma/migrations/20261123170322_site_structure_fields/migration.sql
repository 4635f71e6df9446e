-- AlterTable
ALTER TABLE "SiteSection" ADD COLUMN     "defaultSiteSpaceId" TEXT,
ADD COLUMN     "draft" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "SiteSpace" ADD COLUMN     "draft" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "hidden" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "SiteSection_siteId_position_idx" ON "SiteSection"("siteId", "position");
