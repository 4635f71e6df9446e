-- CreateIndex
CREATE INDEX "ChangeRequest_revisionMergedId_idx" ON "ChangeRequest"("revisionMergedId");
