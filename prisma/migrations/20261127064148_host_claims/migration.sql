-- CreateEnum
CREATE TYPE "HostClaimKind" AS ENUM ('hostname', 'proxy');

-- CreateEnum
CREATE TYPE "HostClaimState" AS ENUM ('pending', 'active', 'failed');

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "hostnameActive" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "proxyActive" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "HostClaim" (
    "host" TEXT NOT NULL,
    "kind" "HostClaimKind" NOT NULL,
    "organizationId" TEXT NOT NULL,
    "siteId" TEXT,
    "token" TEXT NOT NULL,
    "state" "HostClaimState" NOT NULL DEFAULT 'pending',
    "grandfathered" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "dueAt" TIMESTAMPTZ(3),
    "checkedAt" TIMESTAMPTZ(3),
    "verifiedAt" TIMESTAMPTZ(3),
    "lapsedAt" TIMESTAMPTZ(3),
    "lastError" TEXT,

    CONSTRAINT "HostClaim_pkey" PRIMARY KEY ("host")
);

-- CreateIndex
CREATE UNIQUE INDEX "HostClaim_siteId_key" ON "HostClaim"("siteId");

-- CreateIndex
CREATE INDEX "HostClaim_dueAt_idx" ON "HostClaim"("dueAt");

-- CreateIndex
CREATE INDEX "HostClaim_organizationId_idx" ON "HostClaim"("organizationId");

-- AddForeignKey
ALTER TABLE "HostClaim" ADD CONSTRAINT "HostClaim_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HostClaim" ADD CONSTRAINT "HostClaim_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hosts are case-insensitive, and a visitor's URL is looked up in lowercase: a proxy's host is stored so.
UPDATE "Site" SET proxy = lower(split_part(proxy, '/', 1)) || substr(proxy, length(split_part(proxy, '/', 1)) + 1)
 WHERE proxy IS NOT NULL AND split_part(proxy, '/', 1) <> lower(split_part(proxy, '/', 1));

-- Hostnames and proxies set before proof was required are grandfathered: active, first checked one recheck interval
-- from now (checkedAt). Hostnames were unique already. A proxy host goes to the organization of the oldest site with a
-- proxy on it, unless it is a site's hostname: the other sites' proxies on it stay set, without effect.
INSERT INTO "HostClaim" (host, kind, "organizationId", "siteId", token, state, grandfathered, "createdAt", "checkedAt")
SELECT hostname, 'hostname', "organizationId", id, replace(gen_random_uuid()::text, '-', ''), 'active', true, now(), now()
  FROM "Site" WHERE hostname IS NOT NULL;

INSERT INTO "HostClaim" (host, kind, "organizationId", token, state, grandfathered, "createdAt", "checkedAt")
SELECT DISTINCT ON (split_part(proxy, '/', 1)) split_part(proxy, '/', 1), 'proxy', "organizationId",
       replace(gen_random_uuid()::text, '-', ''), 'active', true, now(), now()
  FROM "Site" WHERE proxy IS NOT NULL
 ORDER BY split_part(proxy, '/', 1), "createdAt", id
ON CONFLICT (host) DO NOTHING;

UPDATE "Site" SET "hostnameActive" = true WHERE hostname IS NOT NULL;

UPDATE "Site" s SET "proxyActive" = true
 WHERE proxy IS NOT NULL
   AND EXISTS (SELECT 1 FROM "HostClaim" c
                WHERE c.kind = 'proxy' AND c."organizationId" = s."organizationId" AND c.host = split_part(s.proxy, '/', 1));
