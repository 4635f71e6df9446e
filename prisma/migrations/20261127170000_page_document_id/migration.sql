-- A page's documentId is the id of its version (src/revisions/read.ts): the column was never written, and is not read.
ALTER TABLE "PageVersion" DROP COLUMN "documentId";
