-- DropIndex
DROP INDEX "Collection_organizationId_effectiveLevel_idx";

-- DropIndex
DROP INDEX "Space_organizationId_deletedAt_effectiveLevel_idx";

-- DropIndex
DROP INDEX "Space_parentId_deletedAt_effectiveLevel_idx";

-- CreateIndex
CREATE INDEX "Collection_organizationId_effectiveLevel_id_idx" ON "Collection"("organizationId", "effectiveLevel", "id");

-- CreateIndex
CREATE INDEX "Space_organizationId_deletedAt_effectiveLevel_id_idx" ON "Space"("organizationId", "deletedAt", "effectiveLevel", "id");

-- CreateIndex
CREATE INDEX "Space_parentId_deletedAt_effectiveLevel_id_idx" ON "Space"("parentId", "deletedAt", "effectiveLevel", "id");

-- CreateIndex
CREATE INDEX "TeamMember_userId_idx" ON "TeamMember"("userId");
