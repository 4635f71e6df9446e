-- Enum values are stored under the names Prisma and GraphQL use, and REST spellings such as in-collection are the
-- API's presentation, kept in its GraphQL enums: rows read with plain SQL are then the rows Prisma reads.
ALTER TYPE "SpaceVisibility" RENAME VALUE 'share-link' TO 'share_link';
ALTER TYPE "SpaceVisibility" RENAME VALUE 'visitor-auth' TO 'visitor_auth';
ALTER TYPE "SpaceVisibility" RENAME VALUE 'in-collection' TO 'in_collection';
ALTER TYPE "SiteType" RENAME VALUE 'legacy-basic' TO 'legacy_basic';
ALTER TYPE "SiteType" RENAME VALUE 'legacy-premium' TO 'legacy_premium';
ALTER TYPE "SiteVisibility" RENAME VALUE 'share-link' TO 'share_link';
ALTER TYPE "SiteVisibility" RENAME VALUE 'visitor-auth' TO 'visitor_auth';
ALTER TYPE "CustomFieldType" RENAME VALUE 'select:multi' TO 'select_multi';
ALTER TYPE "CustomFieldType" RENAME VALUE 'select:single' TO 'select_single';
ALTER TYPE "GitProvider" RENAME VALUE 'github-legacy' TO 'github_legacy';
