-- A merge reads the primary rows that ended after the change request's base (pages and files it deleted) through these.
CREATE INDEX "PageVersion_spaceId_line_validTo_idx" ON "PageVersion"("spaceId", "line", "validTo");
CREATE INDEX "FileVersion_spaceId_line_validTo_idx" ON "FileVersion"("spaceId", "line", "validTo");
-- A content batch reads the subpages of the pages it places and deletes through this, not the whole tree.
CREATE INDEX "PageVersion_spaceId_line_parentId_idx" ON "PageVersion"("spaceId", "line", "parentId");
