-- DropIndex
DROP INDEX "Comment_changeRequestId_idx";

-- CreateIndex
CREATE INDEX "Comment_changeRequestId_postedAt_id_idx" ON "Comment"("changeRequestId", "postedAt", "id");
