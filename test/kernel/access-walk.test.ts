// Access by construction, proven over the whole graph: a walk of the schema that reaches every field returning a
// protected object (or a list or union of them) by every path it can build from the root, as personas who may see
// some of what a rich world holds but not the rest, and finds none of what each may not see in any answer: no id, no
// title, no count that includes it. A new field that returns a protected object is walked the day it is added; a new
// object type with an id must be protected or reached only below one (the static test), so nothing is left out by
// forgetting to list it.
import {
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  getNamedType,
  isAbstractType,
  isEnumType,
  isLeafType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { protectedTypes } from '../../src/kernel/access.js';
import { schema } from '../../src/schema.js';
import { type Person, useApi } from '../support/app.js';
import { buildRestrictedWorld } from '../support/restricted-world.js';
import type { World } from '../support/world.js';

/**
 * Object types with an id that are no protected object: parts of one, reached only through it (the static test checks
 * that every field returning them sits on a protected type or on another part), or public by nature.
 */
const parts = new Set([
  'AuditEventAction',
  'AuditEventActor',
  'AuditEventTarget',
  'ChangeRequestLink',
  'ChangedRevisionFile',
  'ChangedRevisionPage',
  'CommentMention',
  'CommentTargetNode',
  'CommentTargetPage',
  'GitSyncOperation',
  'IntegrationBlock',
  'IntegrationContentSource',
  'MergeConflict',
  'Revision',
  'RevisionFile',
  'RevisionPage',
  'SearchPageResult',
  'SearchSectionResult',
  'SearchSpaceResult',
  'SiteFeature',
  'SsoProviderLogin',
  'WebhookDelivery',
]);
/** Public by nature, with why. */
const publicTypes: Record<string, string> = {
  User: 'a person’s name and photo; the e-mail is a guarded field of its own',
  PublicOrganization: 'what anyone may know of an organization',
  Integration: 'the integration catalog: public integrations to anyone, others to their owner (filtered in SQL)',
};
/** Root fields that answer parts, with the filter that stands in for a protected parent. */
const partRoots: Record<string, string> = {
  'Query.mentions': 'the viewer’s mentions, in spaces the viewer can see (SQL)',
};

type ObjectType = GraphQLObjectType;
const objectTypes = Object.values(schema.getTypeMap()).filter(
  (type): type is ObjectType => isObjectType(type) && !type.name.startsWith('__'),
);

describe('the schema’s protected objects', () => {
  it('registers every object type with an id as protected, a part, or public by nature', () => {
    const unclassified = objectTypes
      .filter((type) => type.getFields().id && type.name !== 'Query' && type.name !== 'Mutation')
      .map((type) => type.name)
      .filter((name) => !protectedTypes.has(name) && !parts.has(name) && !(name in publicTypes));
    expect(unclassified).toEqual([]);
  });

  it('reaches parts only below a protected object (or another part), or through a reviewed root field', () => {
    const wrong: string[] = [];
    for (const type of objectTypes) {
      for (const field of Object.values(type.getFields())) {
        if (!parts.has(getNamedType(field.type).name)) continue;
        const parent = type.name;
        const envelope = isEnvelope(type);
        const owners = envelope ? fieldsReturning(type).map(([owner]) => owner.name) : [parent];
        for (const owner of owners) {
          const key = `${owner}.${envelope ? fieldsReturning(type).find(([o]) => o.name === owner)![1].name : field.name}`;
          if (owner === 'Mutation' || protectedTypes.has(owner) || parts.has(owner) || owner in publicTypes || key in partRoots) continue;
          if (!reachableOnlyBelowProtected(owner)) wrong.push(`${parent}.${field.name} (through ${owner})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** A list envelope: `{ items, next, count }`. */
const isEnvelope = (type: GraphQLNamedType): boolean => isObjectType(type) && 'items' in type.getFields() && 'count' in type.getFields();
/** The type of an envelope's items. */
const itemsOf = (type: GraphQLNamedType) => getNamedType((type as ObjectType).getFields().items.type);

/** The fields of any type that return `type` (or a list of it). */
function fieldsReturning(type: GraphQLNamedType): [ObjectType, GraphQLField<unknown, unknown>][] {
  return objectTypes.flatMap((owner) =>
    Object.values(owner.getFields())
      .filter((field) => getNamedType(field.type).name === type.name)
      .map((field) => [owner, field] as [ObjectType, GraphQLField<unknown, unknown>]),
  );
}

/** Whether every way to `type` from the root passes through a protected object (mutations aside). */
function reachableOnlyBelowProtected(typeName: string, seen = new Set<string>()): boolean {
  if (protectedTypes.has(typeName)) return true;
  if (typeName === 'Query') return false;
  if (seen.has(typeName)) return true;
  seen.add(typeName);
  const type = schema.getType(typeName)!;
  const owners = fieldsReturning(type).filter(([owner]) => owner.name !== 'Mutation');
  const unions = Object.values(schema.getTypeMap()).filter(
    (candidate) => isAbstractType(candidate) && schema.getPossibleTypes(candidate).some((member) => member.name === typeName),
  );
  return (
    owners.every(([owner, field]) => `${owner.name}.${field.name}` in partRoots || reachableOnlyBelowProtected(owner.name, seen)) &&
    unions.every((union) => reachableOnlyBelowProtected(union.name, seen))
  );
}

// --- the world ---------------------------------------------------------------------------------------------------------

const { t } = useApi({
  env: { ALLOW_PRIVATE_NETWORK: 'true', GRAPHQL_MAX_COST: '1000000', GRAPHQL_MAX_DEPTH: '50', GRAPHQL_MAX_ALIASES: '1000' },
});
/** The personas of the restricted world (test/support/restricted-world.ts). */
let world: World;

/** What each persona may not see: ids and the marker words in the titles of those objects. */
interface Secrets {
  ids: Set<string>;
  words: Set<string>;
}
interface Persona {
  name: string;
  token: string;
  secrets: Secrets;
}
let personas: Persona[];
/** Candidate values of arguments, by what they name: every object of the world, seen or not. */
const pools: Record<string, string[]> = {};
const addTo = (pool: string, ...values: string[]) => {
  pools[pool] = [...(pools[pool] ?? []), ...values];
};

beforeAll(async () => {
  const w = await buildRestrictedWorld(t);
  world = w.world;
  addTo('Organization', w.org, world.secondOrganizationId, world.outsiderOrganizationId);
  addTo('Space', w.openSpace, w.secretSpace, w.secretInCollection, w.grantedSpace);
  addTo('Collection', w.openCollection, w.secretCollection);
  addTo('ChangeRequest', ...w.secretChangeRequests, ...w.openChangeRequests);
  addTo('Comment', w.secretComments[0], w.secretComments[2], w.openComments[0]);
  addTo('CommentReply', w.secretComments[1], w.secretComments[3], w.openComments[1]);
  addTo('ChangeRequestReview', ...w.secretReviews, ...w.openReviews);
  addTo('Site', w.site);
  addTo('SiteSpace', w.openSiteSpace, w.secretSiteSpace, w.sectionSiteSpace);
  addTo('SiteSection', w.section);
  addTo('SiteRedirect', w.redirect);
  addTo('ShareLink', w.shareLink);
  addTo('Team', w.team);
  addTo('User', world.admin.userId, world.reader.userId, w.guest.userId, world.outsider.userId);
  addTo('CustomField', 'leakfield');
  addTo('OpenAPISpec', 'leak-spec');
  addTo('SamlProvider', w.saml);
  // An event of the world's changes (its spaces' creation, say): the audit log is its admins' alone.
  const auditEvent = (await t.prisma.auditEvent.findFirstOrThrow({ where: { organizationId: w.org } })).id;
  addTo('AuditEvent', auditEvent);
  addTo('Webhook', w.webhook);
  addTo('Invite', w.invite);
  addTo('ApiToken', w.apiToken);
  addTo('Integration', w.integrationName);
  addTo('IntegrationInstallation', w.installation);
  addTo('OpenAPISpecVersion', w.version);
  addTo('BackgroundJob', w.job);
  addTo('ImportRun', w.secretImportRun, w.openImportRun);
  addTo('emailDomain', 'leakdomain.example');
  addTo('query', 'LEAKpage', 'LEAKbody');
  addTo('source', '/old');
  addTo('RevisionPage', ...w.pageIds);
  // Every revision of the open and the secret space, asked for under each space.
  const revisions = await t.prisma.revision.findMany({ where: { spaceId: { in: [w.openSpace, w.secretSpace] } } });
  const secretRevisions = revisions.filter((revision) => revision.spaceId === w.secretSpace).map((revision) => revision.id);
  addTo('Revision', ...revisions.map((revision) => revision.id));
  addTo('path', 'leakpage', 'open-page');
  // No file nor Git sync operation exists: an id of none still walks the field.
  addTo('RevisionFile', 'noSuchFile');
  addTo('GitSyncOperation', 'noSuchOperation');

  const secretContent = [
    w.secretSpace,
    w.secretInCollection,
    w.secretCollection,
    ...w.secretChangeRequests,
    ...w.secretComments,
    ...w.secretReviews,
    ...w.secretPageIds,
    ...secretRevisions,
    w.secretImportRun,
  ];
  const secretContentWords = [
    'LEAKspace',
    'LEAKnested',
    'LEAKcollection',
    'LEAKpage',
    'LEAKbody',
    'LEAKcr',
    'LEAKopencr',
    'LEAKcomment',
    'LEAKcrcomment',
    'LEAKreview',
    'LEAKvalue',
    'LEAKimport',
  ];
  const adminOnly = [w.shareLink, w.saml, w.webhook, w.invite, w.installation, w.job, auditEvent, w.apiToken];
  const adminOnlyWords = ['LEAKsharelink', 'LEAKsaml', 'LEAKwebhook', 'LEAKjob', 'LEAKtoken'];
  const everything = {
    ids: [
      ...secretContent,
      ...adminOnly,
      w.grantedSpace,
      w.openSpace,
      w.openCollection,
      ...w.openChangeRequests,
      ...w.openComments,
      ...w.openReviews,
      w.openImportRun,
      w.site,
      w.openSiteSpace,
      w.secretSiteSpace,
      w.sectionSiteSpace,
      w.section,
      w.redirect,
      w.team,
      w.field,
      w.spec,
      w.version,
    ],
    words: [...secretContentWords, ...adminOnlyWords, 'LEAKteam', 'LEAKfield', 'LEAKapi'],
  };
  const secrets = (ids: string[], words: string[]): Secrets => ({ ids: new Set(ids), words: new Set(words) });
  const emailsOf = (...people: Person[]) => people.map((person) => person.email);
  personas = [
    {
      name: 'a reader',
      token: world.reader.token,
      secrets: secrets(
        [...secretContent, ...adminOnly, w.grantedSpace, w.secretSiteSpace, w.sectionSiteSpace],
        [...secretContentWords, ...adminOnlyWords],
      ),
    },
    {
      name: 'a guest granted one space',
      token: w.guest.token,
      secrets: secrets(
        everything.ids.filter((id) => id !== w.grantedSpace && id !== w.field),
        [...everything.words.filter((word) => word !== 'LEAKfield'), ...emailsOf(world.admin, world.reader, world.creator)],
      ),
    },
    // The organization's settings (its e-mail domains) are its members' to know, guests included; not outsiders'.
    {
      name: 'an outsider',
      token: world.outsider.token,
      secrets: secrets(everything.ids, [...everything.words, 'leakdomain.example', ...emailsOf(world.admin, world.reader)]),
    },
    {
      name: 'an admin’s token scoped to another organization',
      token: w.scoped.token,
      secrets: secrets(everything.ids, [...everything.words, 'leakdomain.example', ...emailsOf(world.reader)]),
    },
    // A guest of the organization but for the open space, which it sees as its reader does: nothing else of the
    // content, the site, the team, the spec; the custom fields, as every guest.
    {
      name: 'a reader’s token scoped to one space',
      token: w.openSpaceReader,
      secrets: secrets(
        everything.ids.filter(
          (id) => ![w.openSpace, ...w.openChangeRequests, ...w.openComments, ...w.openReviews, w.openImportRun, w.field].includes(id),
        ),
        [...everything.words.filter((word) => word !== 'LEAKfield'), ...emailsOf(world.admin, world.creator)],
      ),
    },
  ];
}, 240_000);

// --- the walk ----------------------------------------------------------------------------------------------------------

/** What names an argument's values: its own name, or the type its field returns for `id`. */
const argumentPool: Record<string, string> = {
  organizationId: 'Organization',
  spaceId: 'Space',
  collectionId: 'Collection',
  siteId: 'Site',
  teamId: 'Team',
  userId: 'User',
  samlProviderId: 'SamlProvider',
  auditEventId: 'AuditEvent',
  webhookId: 'Webhook',
  tokenId: 'ApiToken',
  inviteId: 'Invite',
  name: 'CustomField',
  slug: 'OpenAPISpec',
  integrationName: 'Integration',
  emailDomain: 'emailDomain',
  query: 'query',
  source: 'source',
  pageId: 'RevisionPage',
  fileId: 'RevisionFile',
  path: 'path',
};

function poolFor(field: GraphQLField<unknown, unknown>, argument: string): string[] | undefined {
  if (argument === 'id') {
    const returned = getNamedType(field.type);
    const named = isEnvelope(returned) ? itemsOf(returned).name : returned.name;
    return pools[named] ?? (field.name === 'comment' ? pools.Comment : field.name === 'reply' ? pools.CommentReply : undefined);
  }
  if (field.name === 'integration' && argument === 'name') return pools.Integration;
  return pools[argumentPool[argument] ?? ''];
}

/** Every way to call a field: one set of arguments per combination of candidates of its required arguments. */
function callsOf(field: GraphQLField<unknown, unknown>): string[] {
  let calls = [''];
  for (const arg of field.args.filter((candidate) => isNonNullType(candidate.type) && candidate.defaultValue === undefined)) {
    const values = poolFor(field, arg.name);
    if (!values) throw new Error(`The walk has no values for ${field.name}(${arg.name}:): name its pool in argumentPool.`);
    const literal = (value: string) =>
      isScalarType(getNamedType(arg.type)) || isEnumType(getNamedType(arg.type)) ? JSON.stringify(value) : value;
    calls = calls.flatMap((call) => values.map((value) => `${call}${call ? ', ' : ''}${arg.name}: ${literal(value)}`));
  }
  return calls.map((call) => (call ? `(${call})` : ''));
}

/** The leaves of an object (without required arguments), and `__typename`. */
function leavesOf(type: ObjectType): string {
  const leaves = Object.values(type.getFields()).filter(
    (field) => isLeafType(getNamedType(field.type)) && !field.args.some((arg) => isNonNullType(arg.type)),
  );
  return `__typename ${leaves.map((field) => field.name).join(' ')}`;
}

/** What a walked field selects of what it returns: its leaves, through an envelope or a union. */
function selectionOf(type: GraphQLNamedType): string {
  if (isEnvelope(type)) return `{ count items ${selectionOf(itemsOf(type))} }`;
  if (isAbstractType(type))
    return `{ __typename ${schema
      .getPossibleTypes(type)
      .map((member) => `... on ${member.name} { ${leavesOf(member)} }`)
      .join(' ')} }`;
  if (isObjectType(type)) return `{ ${leavesOf(type)} }`;
  return '';
}

/**
 * Whether a field returns objects with an id (protected ones, their parts, public ones): directly, in a list, an
 * envelope or a union. All are walked, so that what a part or a public object shows is checked too.
 */
function returnsObjects(field: GraphQLField<unknown, unknown>): boolean {
  const named = getNamedType(field.type);
  const item = isEnvelope(named) ? itemsOf(named) : named;
  const members = isAbstractType(item) ? schema.getPossibleTypes(item) : [item];
  return members.some((member) => isObjectType(member) && 'id' in member.getFields());
}

/**
 * The cheapest ways from the root to each object type, as field selections (`organizations`, `items`, `sites`, ...):
 * fields without required arguments cost 1, with them 3, so lists are preferred to lookups by id.
 */
const unreached: string[] = [];

function pathsToTypes(): Map<string, string[][]> {
  const best = new Map<string, { cost: number; paths: string[][] }>([['Query', { cost: 0, paths: [[]] }]]);
  const queue = ['Query'];
  while (queue.length) {
    queue.sort((a, b) => best.get(a)!.cost - best.get(b)!.cost);
    const name = queue.shift()!;
    const { cost, paths } = best.get(name)!;
    for (const field of Object.values((schema.getType(name) as ObjectType).getFields())) {
      const returned = getNamedType(field.type);
      const item = isEnvelope(returned) ? itemsOf(returned) : returned;
      // A union's members are reached through inline fragments.
      const targets = isAbstractType(item)
        ? schema.getPossibleTypes(item).map((member) => [member, [`... on ${member.name}`]] as const)
        : isObjectType(item)
          ? [[item, []] as const]
          : [];
      let calls: string[];
      try {
        calls = callsOf(field);
      } catch (error) {
        unreached.push(`${name}.${field.name}: ${(error as Error).message}`);
        continue;
      }
      const price = cost + (calls[0] !== '' ? 3 : 1);
      for (const [next, fragment] of targets) {
        const known = best.get(next.name);
        if (known && known.cost <= price) continue;
        const steps = calls.map((call) => [`${field.name}${call}`, ...(isEnvelope(returned) ? ['items'] : []), ...fragment]);
        best.set(next.name, { cost: price, paths: paths.flatMap((path) => steps.map((step) => [...path, ...step])).slice(0, 12) });
        queue.push(next.name);
      }
    }
  }
  return new Map([...best].map(([name, { paths }]) => [name, paths]));
}

/** A selection of `inner` below a path: `a(x) { items { b { inner } } }`. */
const nest = (path: string[], inner: string) => path.reduceRight((acc, step) => `${step} { ${acc} }`, inner);

/** The object types a query can reach at all (whatever arguments it needs); the others are mutations' answers. */
function queryReachable(): Set<string> {
  const seen = new Set(['Query']);
  const queue = ['Query'];
  while (queue.length) {
    for (const field of Object.values((schema.getType(queue.shift()!) as ObjectType).getFields())) {
      const named = getNamedType(field.type);
      const members = isAbstractType(named) ? schema.getPossibleTypes(named) : [named];
      for (const member of members) {
        if (isObjectType(member) && !seen.has(member.name)) {
          seen.add(member.name);
          queue.push(member.name);
        }
      }
    }
  }
  return seen;
}

function queriesOf(): { label: string; query: string }[] {
  const paths = pathsToTypes();
  const reachable = queryReachable();
  const queries: { label: string; query: string }[] = [];
  for (const type of objectTypes) {
    // Envelopes are walked through their owners' fields; what only mutations answer is judged there (the same guard).
    if (type.name === 'Mutation' || isEnvelope(type) || !reachable.has(type.name)) continue;
    const ways = paths.get(type.name);
    for (const field of Object.values(type.getFields())) {
      if (!returnsObjects(field)) continue;
      if (!ways) throw new Error(`The walk finds no way to ${type.name}, which has ${field.name}:\n${unreached.join('\n')}`);
      for (const call of callsOf(field)) {
        const inner = `${field.name}${call} ${selectionOf(getNamedType(field.type))}`;
        for (const way of ways) queries.push({ label: `${type.name}.${field.name}${call}`, query: `{ ${nest(way, inner)} }` });
      }
    }
  }
  return queries;
}

/** The field a query's label names, without its arguments: `ChangeRequest.review`. */
const fieldOf = (label: string) => label.replace(/\(.*$/, '');

/** Every list envelope in an answer whose count says more than its items show. */
function overcounted(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) overcounted(item, found);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.items) && typeof record.count === 'number' && !record.next && record.count !== record.items.length) {
      found.push(`count ${record.count} for ${record.items.length} items`);
    }
    for (const child of Object.values(record)) overcounted(child, found);
  }
  return found;
}

describe('a walk of every field that returns an object with an id, protected ones first', () => {
  it('builds a query for every such field, by every cheapest path', () => {
    const queries = queriesOf();
    const walked = new Set(queries.map((query) => fieldOf(query.label)));
    const reachable = queryReachable();
    const expected = objectTypes.flatMap((type) =>
      type.name === 'Mutation' || isEnvelope(type) || !reachable.has(type.name)
        ? []
        : Object.values(type.getFields())
            .filter(returnsObjects)
            .map((field) => `${type.name}.${field.name}`),
    );
    expect([...walked].sort()).toEqual([...new Set(expected)].sort());
  });

  it('answers no persona anything it may not see, through any of them', { timeout: 600_000 }, async () => {
    const queries = queriesOf();
    const leaks: string[] = [];
    /** The fields some persona got data through. */
    const answered = new Set<string>();
    for (const persona of personas) {
      for (const { label, query } of queries) {
        const res = await t.request('POST', '/graphql', { token: persona.token, body: { query } });
        expect(res.status, `${label}: ${res.text}`).toBeLessThan(500);
        const data = JSON.stringify(res.body?.data ?? null);
        if (data !== 'null') answered.add(fieldOf(label));
        const errors = JSON.stringify(res.body?.errors ?? []);
        for (const id of persona.secrets.ids) if (data.includes(id)) leaks.push(`${persona.name}: ${label} answers ${id}\n  ${query}`);
        for (const word of persona.secrets.words) {
          if (data.includes(word) || errors.includes(word)) leaks.push(`${persona.name}: ${label} answers "${word}"\n  ${query}`);
        }
        for (const problem of overcounted(res.body?.data)) leaks.push(`${persona.name}: ${label}: ${problem}\n  ${query}`);
      }
    }
    expect(leaks).toEqual([]);
    // Against a walk that reaches nothing: most fields answer data to someone. (Counted by field, not by query: a field
    // of a change request is walked under every pair of space and change request its path takes, most of which name
    // nothing, so each new such field would lower a ratio of queries.)
    expect(answered.size).toBeGreaterThan(new Set(queries.map((query) => fieldOf(query.label))).size / 2);
  });
});

// A guard for the fixtures themselves: each secret is real (the admin sees it), so its absence above means something.
describe('the world the walk runs in', () => {
  it('shows the organization’s admin what the personas may not see', async () => {
    const res = await t.request('POST', '/graphql', {
      token: world.admin.token,
      body: {
        query: `{ organization(id: "${world.organizationId}") { sites { items { siteSpaces { count items { space { title } } } } } spaces { count } } }`,
      },
    });
    expect(res.body.data.organization.sites.items[0].siteSpaces.items.map((item: any) => item.space.title).sort()).toEqual(
      ['LEAKnested', 'LEAKspace', 'Open space'].sort(),
    );
  });
});
