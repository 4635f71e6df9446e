-- DropForeignKey
ALTER TABLE "File" DROP CONSTRAINT "File_revisionId_fkey";

-- DropForeignKey
ALTER TABLE "Page" DROP CONSTRAINT "Page_revisionId_fkey";

-- AlterTable
ALTER TABLE "Revision" ADD COLUMN     "baseSeq" INTEGER,
ADD COLUMN     "line" TEXT NOT NULL DEFAULT 'main',
ADD COLUMN     "seq" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "PageVersion" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "line" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "validFrom" INTEGER NOT NULL,
    "validTo" INTEGER,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "parentId" TEXT,
    "type" "PageType" NOT NULL DEFAULT 'document',
    "title" TEXT NOT NULL,
    "emoji" TEXT,
    "icon" TEXT,
    "slug" TEXT NOT NULL,
    "description" TEXT,
    "documentId" TEXT,
    "document" JSONB,
    "markdown" TEXT,
    "target" JSONB,
    "layout" JSONB,
    "cover" JSONB,
    "computed" JSONB,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "noIndex" BOOLEAN NOT NULL DEFAULT false,
    "noRobotsIndex" BOOLEAN NOT NULL DEFAULT false,
    "position" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "gitOid" TEXT,
    "gitPath" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PageVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileVersion" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "line" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "validFrom" INTEGER NOT NULL,
    "validTo" INTEGER,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "storageKey" TEXT NOT NULL,
    "gitOid" TEXT,
    "gitPath" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PageVersion_spaceId_line_validFrom_idx" ON "PageVersion"("spaceId", "line", "validFrom");

-- CreateIndex
CREATE INDEX "PageVersion_spaceId_line_pageId_validFrom_idx" ON "PageVersion"("spaceId", "line", "pageId", "validFrom");

-- CreateIndex
CREATE INDEX "FileVersion_spaceId_line_validFrom_idx" ON "FileVersion"("spaceId", "line", "validFrom");

-- CreateIndex
CREATE INDEX "FileVersion_spaceId_line_fileId_validFrom_idx" ON "FileVersion"("spaceId", "line", "fileId", "validFrom");

-- Hand-written: existing revisions are numbered in their space's order of creation, and the pages and files they
-- held become versions of the primary line valid for that revision (the active one's until further notice), so that
-- no content is lost in the change of model.
UPDATE "Revision" r SET seq = n.seq
  FROM (SELECT id, row_number() OVER (PARTITION BY "spaceId" ORDER BY "createdAt", id)::int AS seq FROM "Revision") n
 WHERE r.id = n.id;

INSERT INTO "PageVersion" (id, "spaceId", line, "pageId", "validFrom", "validTo", "parentId", type, title, emoji, icon, slug,
    description, "documentId", document, markdown, target, layout, cover, computed, hidden, "noIndex", "noRobotsIndex",
    position, "gitOid", "gitPath", "createdAt", "updatedAt")
SELECT md5(p."revisionId" || '/' || p.id), r."spaceId", 'main', p.id, r.seq,
       CASE WHEN s."revisionId" = r.id THEN NULL ELSE r.seq + 1 END, p."parentId", p.type, p.title, p.emoji, p.icon, p.slug,
       p.description, p."documentId", p.document, p.markdown, p.target, p.layout, p.cover, p.computed, p.hidden, p."noIndex",
       p."noRobotsIndex", p.position, p."gitOid", p."gitPath", p."createdAt", p."updatedAt"
  FROM "Page" p JOIN "Revision" r ON r.id = p."revisionId" JOIN "Space" s ON s.id = r."spaceId";

INSERT INTO "FileVersion" (id, "spaceId", line, "fileId", "validFrom", "validTo", name, "contentType", size, width, height,
    "storageKey", "gitOid", "gitPath", "createdAt")
SELECT md5(f."revisionId" || '/' || f.id), r."spaceId", 'main', f.id, r.seq,
       CASE WHEN s."revisionId" = r.id THEN NULL ELSE r.seq + 1 END, f.name, f."contentType", f.size, f.width, f.height,
       f."storageKey", f."gitOid", f."gitPath", f."createdAt"
  FROM "File" f JOIN "Revision" r ON r.id = f."revisionId" JOIN "Space" s ON s.id = r."spaceId";

-- DropTable
DROP TABLE "File";

-- DropTable
DROP TABLE "Page";

-- CreateIndex
CREATE UNIQUE INDEX "Revision_spaceId_line_seq_key" ON "Revision"("spaceId", "line", "seq");

-- AddForeignKey
ALTER TABLE "PageVersion" ADD CONSTRAINT "PageVersion_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileVersion" ADD CONSTRAINT "FileVersion_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;
