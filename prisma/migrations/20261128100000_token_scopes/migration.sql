-- Token scopes (src/tokens): the organizations a token acts in, the spaces it sees, and read-only access.
-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "organizations" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "readOnly" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "spaces" TEXT[] DEFAULT ARRAY[]::TEXT[];
