-- CreateTable
CREATE TABLE "PageLink" (
    "pageVersionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "href" TEXT NOT NULL,
    "anchor" TEXT,

    CONSTRAINT "PageLink_pkey" PRIMARY KEY ("pageVersionId","position")
);

-- AddForeignKey
ALTER TABLE "PageLink" ADD CONSTRAINT "PageLink_pageVersionId_fkey" FOREIGN KEY ("pageVersionId") REFERENCES "PageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
