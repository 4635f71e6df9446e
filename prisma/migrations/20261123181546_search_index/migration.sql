-- CreateTable
CREATE TABLE "PageSearch" (
    "pageVersionId" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "search" tsvector NOT NULL,

    CONSTRAINT "PageSearch_pkey" PRIMARY KEY ("pageVersionId")
);

-- CreateTable
CREATE TABLE "PageSection" (
    "pageVersionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "anchor" TEXT,
    "heading" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "search" tsvector NOT NULL,

    CONSTRAINT "PageSection_pkey" PRIMARY KEY ("pageVersionId","position")
);

-- CreateTable
CREATE TABLE "SearchBacklog" (
    "spaceId" TEXT NOT NULL,

    CONSTRAINT "SearchBacklog_pkey" PRIMARY KEY ("spaceId")
);

-- CreateIndex
CREATE INDEX "PageSearch_spaceId_idx" ON "PageSearch"("spaceId");

-- CreateIndex
CREATE INDEX "PageSearch_search_idx" ON "PageSearch" USING GIN ("search");

-- AddForeignKey
ALTER TABLE "PageSearch" ADD CONSTRAINT "PageSearch_pageVersionId_fkey" FOREIGN KEY ("pageVersionId") REFERENCES "PageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PageSection" ADD CONSTRAINT "PageSection_pageVersionId_fkey" FOREIGN KEY ("pageVersionId") REFERENCES "PageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: a page's vector stays in its row, uncompressed, up to the size of a heap page (the default moves or
-- compresses what passes 2 kB); ranking reads it for every page that matches.
ALTER TABLE "PageSearch" SET (toast_tuple_target = 8160);

-- Written by hand: the spaces whose current content is there before the index, for the backfill to index
-- (src/search/backfill.ts). Content written from now on is indexed as it is written.
INSERT INTO "SearchBacklog" ("spaceId")
SELECT DISTINCT "spaceId" FROM "PageVersion" WHERE line = 'main' AND "validTo" IS NULL AND NOT deleted;
