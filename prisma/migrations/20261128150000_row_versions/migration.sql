-- Row versions: what an object's ETag is made of (README, "No lost updates"). Every UPDATE that changes a stored
-- column of the object's representation adds one to "rowVersion", whatever wrote it (Prisma, plain SQL, a job) and
-- however close in time: a trigger, since the code has many UPDATEs and a version bumped by hand would be missed by
-- some. The trigger's arguments name the columns an object's representation does not show or that are bookkeeping
-- (a position among siblings, the effective level behind per-viewer permissions, the change-request counter, a
-- member's lastSeenAt, a webhook's failure count): writes of those alone leave the version as it was.
CREATE FUNCTION "bump_row_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF to_jsonb(NEW) - coalesce(TG_ARGV, '{}'::text[]) IS DISTINCT FROM to_jsonb(OLD) - coalesce(TG_ARGV, '{}'::text[]) THEN
    NEW."rowVersion" := OLD."rowVersion" + 1;
  END IF;
  RETURN NEW;
END
$$;

ALTER TABLE "Organization" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "Organization_rowVersion" BEFORE UPDATE ON "Organization" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "Member" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "Member_rowVersion" BEFORE UPDATE ON "Member" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"('lastSeenAt');
ALTER TABLE "Team" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "Team_rowVersion" BEFORE UPDATE ON "Team" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "Collection" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "Collection_rowVersion" BEFORE UPDATE ON "Collection" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"('position', 'effectiveLevel');
ALTER TABLE "Space" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "Space_rowVersion" BEFORE UPDATE ON "Space" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"('position', 'effectiveLevel', 'changeRequestSeq');
ALTER TABLE "ChangeRequest" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "ChangeRequest_rowVersion" BEFORE UPDATE ON "ChangeRequest" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "Comment" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "Comment_rowVersion" BEFORE UPDATE ON "Comment" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "Site" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "Site_rowVersion" BEFORE UPDATE ON "Site" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "SiteSection" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "SiteSection_rowVersion" BEFORE UPDATE ON "SiteSection" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"('position');
ALTER TABLE "SiteSpace" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "SiteSpace_rowVersion" BEFORE UPDATE ON "SiteSpace" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"('position');
ALTER TABLE "SiteRedirect" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "SiteRedirect_rowVersion" BEFORE UPDATE ON "SiteRedirect" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "ShareLink" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "ShareLink_rowVersion" BEFORE UPDATE ON "ShareLink" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "CustomField" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "CustomField_rowVersion" BEFORE UPDATE ON "CustomField" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "OpenAPISpec" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "OpenAPISpec_rowVersion" BEFORE UPDATE ON "OpenAPISpec" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"();
ALTER TABLE "Webhook" ADD COLUMN "rowVersion" INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER "Webhook_rowVersion" BEFORE UPDATE ON "Webhook" FOR EACH ROW EXECUTE FUNCTION "bump_row_version"('consecutiveFailures');
