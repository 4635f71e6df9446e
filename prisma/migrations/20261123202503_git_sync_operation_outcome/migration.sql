-- AlterTable
ALTER TABLE "GitSyncOperation" ADD COLUMN     "commitId" TEXT,
ADD COLUMN     "revisionId" TEXT,
ADD COLUMN     "skipped" BOOLEAN NOT NULL DEFAULT false;
