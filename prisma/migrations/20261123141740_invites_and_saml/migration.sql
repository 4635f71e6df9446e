-- EmailInvite gains NOT NULL columns without defaults: no release wrote invites before this one, so the table is empty.

-- AlterTable
ALTER TABLE "EmailInvite" ADD COLUMN     "expiresAt" TIMESTAMPTZ(3) NOT NULL,
ADD COLUMN     "invitedById" TEXT,
ADD COLUMN     "tokenHash" TEXT NOT NULL,
ADD COLUMN     "userId" TEXT NOT NULL;

-- CreateTable
CREATE TABLE "SamlRequest" (
    "id" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SamlRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SamlAssertion" (
    "providerId" TEXT NOT NULL,
    "assertionId" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SamlAssertion_pkey" PRIMARY KEY ("providerId","assertionId")
);

-- CreateIndex
CREATE INDEX "SamlRequest_expiresAt_idx" ON "SamlRequest"("expiresAt");

-- CreateIndex
CREATE INDEX "SamlAssertion_expiresAt_idx" ON "SamlAssertion"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "EmailInvite_tokenHash_key" ON "EmailInvite"("tokenHash");

-- CreateIndex
CREATE INDEX "EmailInvite_userId_idx" ON "EmailInvite"("userId");

-- AddForeignKey
ALTER TABLE "EmailInvite" ADD CONSTRAINT "EmailInvite_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EmailInvite" ADD CONSTRAINT "EmailInvite_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SamlRequest" ADD CONSTRAINT "SamlRequest_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "SamlProvider"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SamlAssertion" ADD CONSTRAINT "SamlAssertion_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "SamlProvider"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma does not model CHECK constraints, and leaves them alone): a grant is on exactly one of a
-- collection or a space, for exactly one of a user or a team; a link invite targets at most one piece of content.
ALTER TABLE "ContentGrant" ADD CONSTRAINT "ContentGrant_one_target" CHECK (num_nonnulls("collectionId", "spaceId") = 1);
ALTER TABLE "ContentGrant" ADD CONSTRAINT "ContentGrant_one_grantee" CHECK (num_nonnulls("userId", "teamId") = 1);
ALTER TABLE "LinkInvite" ADD CONSTRAINT "LinkInvite_one_target" CHECK (num_nonnulls("collectionId", "spaceId") <= 1);
