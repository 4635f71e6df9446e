-- What names files' bytes besides file versions (src/files/storage.ts, src/files/sweep.ts): intents of writes in
-- progress, and exported PDFs until their links expire. The sweep looks bytes up by key in each.
-- CreateTable
CREATE TABLE "FileIntent" (
    "id" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "organizationId" TEXT,
    "size" INTEGER NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FileIntent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileExport" (
    "id" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FileExport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FileIntent_storageKey_idx" ON "FileIntent"("storageKey");

-- CreateIndex
CREATE INDEX "FileIntent_organizationId_expiresAt_idx" ON "FileIntent"("organizationId", "expiresAt");

-- CreateIndex
CREATE INDEX "FileIntent_expiresAt_idx" ON "FileIntent"("expiresAt");

-- CreateIndex
CREATE INDEX "FileExport_storageKey_idx" ON "FileExport"("storageKey");

-- CreateIndex
CREATE INDEX "FileExport_organizationId_expiresAt_idx" ON "FileExport"("organizationId", "expiresAt");

-- CreateIndex
CREATE INDEX "FileExport_expiresAt_idx" ON "FileExport"("expiresAt");

-- CreateIndex
CREATE INDEX "FileVersion_storageKey_idx" ON "FileVersion"("storageKey");

-- AddForeignKey
ALTER TABLE "FileIntent" ADD CONSTRAINT "FileIntent_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileExport" ADD CONSTRAINT "FileExport_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileExport" ADD CONSTRAINT "FileExport_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
