-- CreateTable
CREATE TABLE "LinkBacklog" (
    "pageVersionId" TEXT NOT NULL,

    CONSTRAINT "LinkBacklog_pkey" PRIMARY KEY ("pageVersionId")
);

-- AddForeignKey
ALTER TABLE "LinkBacklog" ADD CONSTRAINT "LinkBacklog_pageVersionId_fkey" FOREIGN KEY ("pageVersionId") REFERENCES "PageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: the page versions that link to a page or a file by path (what their links' extraction could not
-- name by id), for the backfill to resolve (src/links/backfill.ts). Content written from now on is resolved as it is
-- written.
INSERT INTO "LinkBacklog" ("pageVersionId")
SELECT DISTINCT "pageVersionId" FROM "PageLink" WHERE kind IN ('page', 'file') AND target LIKE 'path:%';
