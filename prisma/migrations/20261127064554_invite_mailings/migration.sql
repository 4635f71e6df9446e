-- CreateTable
CREATE TABLE "InviteMailing" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "mails" INTEGER NOT NULL,
    "sentAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "InviteMailing_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "InviteMailing_organizationId_sentAt_idx" ON "InviteMailing"("organizationId", "sentAt");

-- AddForeignKey
ALTER TABLE "InviteMailing" ADD CONSTRAINT "InviteMailing_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
