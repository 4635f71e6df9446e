-- CreateIndex
CREATE INDEX "Collection_organizationId_effectiveLevel_idx" ON "Collection"("organizationId", "effectiveLevel");

-- CreateIndex
CREATE INDEX "Space_organizationId_deletedAt_effectiveLevel_idx" ON "Space"("organizationId", "deletedAt", "effectiveLevel");

-- CreateIndex
CREATE INDEX "Space_parentId_deletedAt_effectiveLevel_idx" ON "Space"("parentId", "deletedAt", "effectiveLevel");
