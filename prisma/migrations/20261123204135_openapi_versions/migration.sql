-- AlterTable
ALTER TABLE "OpenAPISpec" ADD COLUMN     "lastProcessedErrors" JSONB;

-- AlterTable
ALTER TABLE "OpenAPISpecVersion" ADD COLUMN     "contentHash" TEXT,
ADD COLUMN     "rawFormat" TEXT,
ADD COLUMN     "rawText" TEXT,
ALTER COLUMN "url" DROP NOT NULL;
