-- CreateEnum
CREATE TYPE "ChangeRequestReviewStatus" AS ENUM ('approved', 'changes_requested');

-- AlterTable
ALTER TABLE "Comment" ADD COLUMN     "reviewId" TEXT;

-- CreateTable
CREATE TABLE "ChangeRequestReview" (
    "id" TEXT NOT NULL,
    "seq" SERIAL NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "requestedById" TEXT,
    "status" "ChangeRequestReviewStatus" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ChangeRequestReview_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequestRequestedReviewer" (
    "id" TEXT NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT,
    "teamId" TEXT,
    "revisionId" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ChangeRequestRequestedReviewer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChangeRequestReview_changeRequestId_seq_idx" ON "ChangeRequestReview"("changeRequestId", "seq");

-- CreateIndex
CREATE INDEX "ChangeRequestReview_changeRequestId_reviewerId_seq_idx" ON "ChangeRequestReview"("changeRequestId", "reviewerId", "seq");

-- CreateIndex
CREATE INDEX "ChangeRequestRequestedReviewer_changeRequestId_createdAt_id_idx" ON "ChangeRequestRequestedReviewer"("changeRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ChangeRequestRequestedReviewer_userId_idx" ON "ChangeRequestRequestedReviewer"("userId");

-- CreateIndex
CREATE INDEX "ChangeRequestRequestedReviewer_teamId_idx" ON "ChangeRequestRequestedReviewer"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "ChangeRequestRequestedReviewer_changeRequestId_userId_key" ON "ChangeRequestRequestedReviewer"("changeRequestId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "ChangeRequestRequestedReviewer_changeRequestId_teamId_key" ON "ChangeRequestRequestedReviewer"("changeRequestId", "teamId");

-- CreateIndex
CREATE UNIQUE INDEX "Comment_reviewId_key" ON "Comment"("reviewId");

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "ChangeRequestReview"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma does not model CHECK constraints, and leaves them alone): a review is asked of exactly one of a
-- user or a team.
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_one_reviewer" CHECK (num_nonnulls("userId", "teamId") = 1);
