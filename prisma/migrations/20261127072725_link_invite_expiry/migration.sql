-- AlterTable
ALTER TABLE "LinkInvite" ADD COLUMN     "expiresAt" TIMESTAMPTZ(3);
