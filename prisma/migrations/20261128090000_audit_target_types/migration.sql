-- An audit event's target type is the API's object name (kebab-case, like GitBook's `object` values): five types
-- recorded in snake_case before are renamed.
UPDATE "AuditEvent" SET "targetType" = replace("targetType", '_', '-')
 WHERE "targetType" IN ('site_space', 'site_section', 'site_redirect', 'share_link', 'integration_installation');
