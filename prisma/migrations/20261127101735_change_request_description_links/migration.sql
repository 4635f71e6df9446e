-- The text column "description" was never written (always NULL): it becomes the JSON document GitBook sends.
-- AlterTable
ALTER TABLE "ChangeRequest" ADD COLUMN     "links" JSONB NOT NULL DEFAULT '[]',
DROP COLUMN "description",
ADD COLUMN     "description" JSONB;
