// The benchmark's second yardstick, the physical limit: the three read endpoints on node:http and node-postgres, no
// framework, no ORM. It sends the statements the product sends (token, membership, the page's rows with their total,
// counters; see src/kernel/context.ts, src/kernel/lists.ts, src/spaces/summary.ts), so that the gap to the
// product is the cost of everything but the database, and returns byte-identical JSON (checked by the benchmark before
// it measures). Statements that do not depend on each other's results run concurrently.
// It lives in bench/ only: it is not part of the product.
import type http from 'node:http';
import type pg from 'pg';
import type { Config } from '../src/config.js';
import { hashToken } from '../src/kernel/ids.js';
import { type PageTokens, parseLimit } from '../src/kernel/pagination.js';
import { contentLevel, type Membership, permissionsOf, policies } from '../src/kernel/permissions.js';
import { HttpError } from './http-error.js';

interface Deps {
  pool: pg.Pool;
  config: Config;
  pageTokens: PageTokens;
}

type ContentLevel = Parameters<typeof contentLevel>[1];

/** Enum columns arrive as stored: Prisma's names, which REST spells differently for visibility. */
const REST_VISIBILITY: Record<string, string> = { share_link: 'share-link', visitor_auth: 'visitor-auth', in_collection: 'in-collection' };

interface SpaceRow {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
  emoji: string;
  visibility: string;
  editMode: string | null;
  defaultLevel: string | null;
  effectiveLevel: ContentLevel;
  language: string | null;
  mergeRules: unknown;
  visitorAuthBackend: string | null;
  revisionId: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

interface CollectionRow {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
  description: string | null;
  defaultLevel: string | null;
  effectiveLevel: ContentLevel;
}

interface Counts {
  id: string;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/** A row of the page statement: an item (with its position, for the next page's token) and its list's total. */
type PageRow<Row> = Row & { position: number; __total: number };

const TOKEN = `SELECT id, "userId", "revokedAt", "expiresAt" FROM "ApiToken" WHERE "tokenHash" = $1`;
/** The membership statement of src/kernel/context.ts, with whether the member holds grants there. */
const MEMBERSHIP = `SELECT m."organizationId", m.role, EXISTS (SELECT 1 FROM "ContentGrant" g
    WHERE g."organizationId" = m."organizationId" AND (g."userId" = m."userId" OR g."teamId" IN
      (SELECT tm."teamId" FROM "TeamMember" tm WHERE tm."organizationId" = m."organizationId" AND tm."userId" = m."userId"))
  ) AS granted
  FROM "Member" m WHERE m."userId" = $1 AND m."organizationId" = ANY($2) AND NOT m.disabled`;
const SPACE_COLUMNS = `id, "organizationId", "parentId", title, emoji, visibility, "editMode", "defaultLevel", "effectiveLevel", language,
  "mergeRules", "visitorAuthBackend", "revisionId", "createdAt", "updatedAt", "deletedAt"`;
const SPACE = `SELECT ${SPACE_COLUMNS} FROM "Space" WHERE id = $1`;
const COLLECTION_COLUMNS = `id, "organizationId", "parentId", title, description, "defaultLevel", "effectiveLevel"`;
/** The space counters as src/spaces/summary.ts reads them: two grouped scans. */
const COUNTS = `SELECT s.id, coalesce(c.open, 0)::int AS comments, coalesce(r.total, 0)::int AS "changeRequests",
    coalesce(r.open, 0)::int AS "changeRequestsOpen", coalesce(r.draft, 0)::int AS "changeRequestsDraft"
  FROM unnest($1::text[]) AS s(id)
  LEFT JOIN (SELECT "spaceId", count(*) AS open FROM "Comment" WHERE "spaceId" = ANY($1::text[]) AND status = 'open' GROUP BY 1) c
    ON c."spaceId" = s.id
  LEFT JOIN (SELECT "spaceId", count(*) AS total, count(*) FILTER (WHERE status = 'open') AS open,
                    count(*) FILTER (WHERE status = 'draft') AS draft
               FROM "ChangeRequest" WHERE "spaceId" = ANY($1::text[]) GROUP BY 1) r ON r."spaceId" = s.id`;

/** visibleToViewerSql (src/kernel/permissions.ts) for the viewer in $2, who holds no grants (as in the data set). */
const VISIBLE = `EXISTS (SELECT 1 FROM "Member" m
    WHERE m."organizationId" = t."organizationId" AND m."userId" = $2 AND NOT m.disabled
      AND ((m.role IS NOT NULL AND (m.role = 'admin' OR t."effectiveLevel" IS NOT NULL)) ))`;

/**
 * loadPages' statement (src/kernel/lists.ts) for lists under an organization: the page's rows (limit in $3, the keyset
 * cursor in $4, $5 after the first page), each with the list's total; an empty page yields one row with a null id.
 */
function pageStatements(table: string, columns: string, where: string) {
  const statement = (after: string) => `SELECT t.*, c.total AS "__total" FROM unnest($1::text[]) AS p(parent)
    CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM ${table} t WHERE t."organizationId" = p.parent AND ${where}) c
    LEFT JOIN LATERAL (
      SELECT ${columns}, position FROM ${table} t
       WHERE t."organizationId" = p.parent AND ${where} ${after}
       ORDER BY t.position, t.id LIMIT $3
    ) t ON TRUE
    ORDER BY t.position, t.id`;
  return { first: statement(''), next: statement('AND (t.position, t.id) > ($4::float8, $5)') };
}

const SPACE_PAGE = pageStatements('"Space"', SPACE_COLUMNS, `t."deletedAt" IS NULL AND ${VISIBLE}`);
const COLLECTION_PAGE = {
  true: pageStatements('"Collection"', COLLECTION_COLUMNS, VISIBLE),
  false: pageStatements('"Collection"', COLLECTION_COLUMNS, `${VISIBLE} AND t."parentId" IS NULL`),
};

/** Query parameters as the product's REST layer reads them (rest/middleware.ts): integers and booleans are strict. */
function limitParam(query: URLSearchParams): number {
  const text = query.get('limit');
  if (text === null) return parseLimit(undefined);
  if (!/^-?\d+$/.test(text)) throw new HttpError(400, 'Invalid "limit": must be an integer.');
  return parseLimit(Number(text));
}

function nestedParam(query: URLSearchParams): boolean {
  const text = query.get('nested');
  if (text === null) return true;
  if (text !== 'true' && text !== 'false') throw new HttpError(400, 'Invalid "nested": must be true or false.');
  return text === 'true';
}

/** The keyset cursor of `page` in list `scope`, or none for the first page. */
function cursorParam(pageTokens: PageTokens, scope: string, query: URLSearchParams): [number, string] | undefined {
  const page = query.get('page');
  if (!page) return undefined;
  const cursor = pageTokens.decode(scope, page);
  if (cursor.length !== 2 || typeof cursor[0] !== 'number' || typeof cursor[1] !== 'string') {
    throw new HttpError(400, 'Invalid "page": not a page token of this list.');
  }
  return [cursor[0], cursor[1]];
}

export function createRawBaseline(deps: Deps): http.RequestListener {
  // Named statements, as the product sends them: each is prepared once per connection.
  const names = new Map<string, string>();
  const run = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => {
    if (!names.has(text)) names.set(text, `raw${names.size}`);
    return deps.pool.query<R>({ name: names.get(text), text, values });
  };
  const { pageTokens } = deps;

  async function viewer(authorization: string | undefined): Promise<string> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new HttpError(401, 'A valid API token is required (Authorization: Bearer <token>).');
    const { rows } = await run<{ id: string; userId: string; revokedAt: Date | null; expiresAt: Date | null }>(TOKEN, [hashToken(token)]);
    const row = rows[0];
    if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= new Date()))
      throw new HttpError(401, 'The API token is unknown, revoked or expired.');
    return row.userId;
  }

  async function membership(userId: string, organizationId: string): Promise<Membership | undefined> {
    const { rows } = await run<Membership & { organizationId: string }>(MEMBERSHIP, [userId, [organizationId]]);
    // The benchmark's data set holds no grants, so the product never runs its grant statement there either.
    return rows[0] && { role: rows[0].role, granted: rows[0].granted };
  }

  async function counts(spaceIds: string[]): Promise<Map<string, Counts>> {
    const { rows } = await run<Counts>(COUNTS, [spaceIds]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  function spaceJson(s: SpaceRow, member: Membership, counted: Counts) {
    const out: Record<string, unknown> = {
      object: 'space',
      id: s.id,
      title: s.title,
      emoji: s.emoji,
      visibility: REST_VISIBILITY[s.visibility] ?? s.visibility,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
    };
    if (s.deletedAt !== null) out.deletedAt = s.deletedAt.toISOString();
    if (s.editMode !== null) out.editMode = s.editMode;
    out.mergeRules = s.mergeRules;
    out.organization = s.organizationId;
    if (s.parentId !== null) out.parent = s.parentId;
    if (s.language !== null) out.language = s.language;
    if (s.visitorAuthBackend !== null) out.visitorAuth = { backend: s.visitorAuthBackend };
    if (s.revisionId !== null) out.revision = s.revisionId;
    out.defaultLevel = s.defaultLevel;
    out.comments = counted.comments;
    out.changeRequests = counted.changeRequests;
    out.changeRequestsOpen = counted.changeRequestsOpen;
    out.changeRequestsDraft = counted.changeRequestsDraft;
    out.urls = { location: `${deps.config.publicUrl}/v1/spaces/${s.id}`, app: `${deps.config.appUrl}/s/${s.id}` };
    out.permissions = permissionsOf(policies.space, contentLevel(member, s.effectiveLevel));
    return out;
  }

  function collectionJson(c: CollectionRow, member: Membership) {
    const out: Record<string, unknown> = { object: 'collection', id: c.id, title: c.title };
    if (c.description !== null) out.description = c.description;
    out.organization = c.organizationId;
    if (c.parentId !== null) out.parent = c.parentId;
    out.defaultLevel = c.defaultLevel;
    out.urls = { location: `${deps.config.publicUrl}/v1/collections/${c.id}`, app: `${deps.config.appUrl}/c/${c.id}` };
    out.permissions = permissionsOf(policies.collection, contentLevel(member, c.effectiveLevel));
    return out;
  }

  /**
   * One page of a list under an organization: the membership and the page statement together (the statement filters
   * by the viewer itself), then `render` of the page's rows.
   */
  async function listBody<Row extends { id: string | null }>(
    userId: string,
    organizationId: string,
    scope: string,
    statements: { first: string; next: string },
    query: URLSearchParams,
    render: (rows: Row[], member: Membership) => Promise<unknown[]> | unknown[],
  ): Promise<string> {
    const take = limitParam(query);
    const cursor = cursorParam(pageTokens, scope, query);
    const [member, { rows: found }] = await Promise.all([
      membership(userId, organizationId),
      run<PageRow<Row>>(cursor ? statements.next : statements.first, [[organizationId], userId, take + 1, ...(cursor ?? [])]),
    ]);
    if (!member) throw new HttpError(404, 'Organization not found');
    const count = found[0]?.__total ?? 0;
    const pageRows = found.filter((r) => r.id !== null);
    const items = pageRows.length ? await render(pageRows.slice(0, take), member) : [];
    const last = pageRows[take - 1];
    const next = pageRows.length > take ? { page: pageTokens.encode(scope, [last.position, last.id as string]) } : undefined;
    return JSON.stringify({ items, ...(next && { next }), count });
  }

  async function respond(request: http.IncomingMessage): Promise<string> {
    const [path, search] = (request.url ?? '/').split('?', 2);
    const userId = await viewer(request.headers.authorization);
    const query = new URLSearchParams(search);
    if (request.method !== 'GET') throw new HttpError(404, `No endpoint ${request.method} ${path}.`);
    const spaceById = /^\/spaces\/([\w-]+)$/.exec(path);
    const organizationSpaces = /^\/orgs\/([\w-]+)\/spaces$/.exec(path);
    const organizationCollections = /^\/orgs\/([\w-]+)\/collections$/.exec(path);
    if (spaceById) {
      const spaceId = spaceById[1];
      const [{ rows }, counted] = await Promise.all([run<SpaceRow>(SPACE, [spaceId]), counts([spaceId])]);
      const space = rows[0];
      const member = space && (await membership(userId, space.organizationId));
      if (!space || !member || !contentLevel(member, space.effectiveLevel)) throw new HttpError(404, 'Space not found');
      return JSON.stringify(spaceJson(space, member, counted.get(spaceId)!));
    }
    if (organizationSpaces) {
      const organizationId = organizationSpaces[1];
      return listBody<SpaceRow>(userId, organizationId, `orgs/${organizationId}/spaces`, SPACE_PAGE, query, async (rows, member) => {
        const counted = await counts(rows.map((space) => space.id));
        return rows.map((space) => spaceJson(space, member, counted.get(space.id)!));
      });
    }
    if (organizationCollections) {
      const organizationId = organizationCollections[1];
      const nested = nestedParam(query);
      return listBody(
        userId,
        organizationId,
        `orgs/${organizationId}/collections:${nested}`,
        COLLECTION_PAGE[`${nested}`],
        query,
        (rows: CollectionRow[], member) => rows.map((collection) => collectionJson(collection, member)),
      );
    }
    throw new HttpError(404, `No endpoint ${request.method} ${path}.`);
  }

  function send(response: http.ServerResponse, status: number, body: string) {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  }

  return (request, response) => {
    respond(request).then(
      (body) => send(response, 200, body),
      (error: unknown) => {
        // HttpError, or the product's own ApiError (400) from parseLimit and PageTokens.decode.
        const status = (error as { status?: number }).status ?? 500;
        if (status === 500) process.stderr.write(`raw baseline: ${(error as Error).stack}\n`);
        const message = status === 500 ? 'Internal server error.' : (error as Error).message;
        send(response, status, JSON.stringify({ error: { code: status, message } }));
      },
    );
  };
}
