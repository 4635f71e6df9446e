-- AlterTable
ALTER TABLE "Comment" ADD COLUMN     "pageVersionId" TEXT,
ADD COLUMN     "revisionId" TEXT;
