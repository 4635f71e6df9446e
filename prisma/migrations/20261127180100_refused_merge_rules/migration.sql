-- Written by hand: merge rules are enforced from now on, and the two this service cannot enforce (require_agent_review:
-- it has no AI reviewer; custom: it evaluates no expressions) are refused when set. Stored configurations lose them; one
-- left without a rule becomes {"type": "none"}. A value of any other shape is left as it is (the CASE keeps
-- jsonb_array_elements from ever seeing one), so that the upgrade cannot fail on it.

WITH listed AS (
  SELECT id, CASE WHEN jsonb_typeof("mergeRules") = 'object' AND "mergeRules" ->> 'type' = 'rules'
                       AND jsonb_typeof("mergeRules" -> 'rules') = 'array' THEN "mergeRules" -> 'rules' END AS rules
    FROM "Organization"
), cleaned AS (
  SELECT id, jsonb_array_length(rules) AS count,
         (SELECT jsonb_agg(r.rule ORDER BY r.position) FROM jsonb_array_elements(rules) WITH ORDINALITY AS r(rule, position)
           WHERE NOT coalesce(r.rule ->> 'rule' IN ('require_agent_review', 'custom'), false)) AS kept
    FROM listed WHERE rules IS NOT NULL
)
UPDATE "Organization" t
   SET "mergeRules" = CASE WHEN c.kept IS NULL THEN '{"type": "none"}'::jsonb ELSE jsonb_build_object('type', 'rules', 'rules', c.kept) END
  FROM cleaned c
 WHERE t.id = c.id AND jsonb_array_length(coalesce(c.kept, '[]'::jsonb)) < c.count;

WITH listed AS (
  SELECT id, CASE WHEN jsonb_typeof("mergeRules") = 'object' AND "mergeRules" ->> 'type' = 'rules'
                       AND jsonb_typeof("mergeRules" -> 'rules') = 'array' THEN "mergeRules" -> 'rules' END AS rules
    FROM "Space"
), cleaned AS (
  SELECT id, jsonb_array_length(rules) AS count,
         (SELECT jsonb_agg(r.rule ORDER BY r.position) FROM jsonb_array_elements(rules) WITH ORDINALITY AS r(rule, position)
           WHERE NOT coalesce(r.rule ->> 'rule' IN ('require_agent_review', 'custom'), false)) AS kept
    FROM listed WHERE rules IS NOT NULL
)
UPDATE "Space" t
   SET "mergeRules" = CASE WHEN c.kept IS NULL THEN '{"type": "none"}'::jsonb ELSE jsonb_build_object('type', 'rules', 'rules', c.kept) END
  FROM cleaned c
 WHERE t.id = c.id AND jsonb_array_length(coalesce(c.kept, '[]'::jsonb)) < c.count;
