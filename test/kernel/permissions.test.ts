// What the API advertises and what it enforces must agree: for every persona, object and action, the `permissions`
// object GraphQL returns says true exactly when authorize() lets the action through; a false is a 403 from authorize(),
// and an object GraphQL does not find is a 404 from authorize() for every action. A few absolute expectations follow
// each matrix, so that the two sides cannot agree on a wrong (or empty) answer.
import type { GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentLevel } from '../../src/generated/prisma/enums.js';
import { authorize, collections, organizations, type Resource, spaces } from '../../src/kernel/authorize.js';
import { authenticate, createContext } from '../../src/kernel/context.js';
import { ApiError } from '../../src/kernel/errors.js';
import { newId } from '../../src/kernel/ids.js';
import { type ActionOf, type Policy, policies } from '../../src/kernel/permissions.js';
import { schema } from '../../src/schema.js';
import { type Person, useApi } from '../support/app.js';
import { buildCollection, buildMember, buildSpace } from '../support/factories.js';

const personas = ['admin', 'creator', 'reviewer', 'editor', 'commenter', 'reader', 'guest', 'teamGranted', 'outsider'] as const;
type Persona = (typeof personas)[number];

/** Every defaultLevel a collection or space can have; null is no default access. */
const defaultLevels = [
  null,
  'inherit',
  'read',
  'comment',
  'edit',
  'review',
  'create',
  'admin',
] as const satisfies readonly (ContentLevel | null)[];
type LevelLabel = `${(typeof defaultLevels)[number]}`;

/** What authorize() did: let the action through, or refused it with this HTTP status (or this unexpected error). */
type Outcome = 'allowed' | number | string;
/** Outcomes by persona, object label and action. */
type Matrix = Record<Persona, Record<string, Record<string, Outcome>>>;

const NOT_FOUND = 'not found';
type Advertised = Record<string, boolean> | typeof NOT_FOUND;

const { t, world } = useApi({ world: true });
/** The world's personas, and `teamGranted`: a guest whose team is granted `edit` on the `comment` collection. */
let people: Record<Persona, Person>;
/** Collections and spaces by the label of their defaultLevel. */
const collectionIds = {} as Record<LevelLabel, string>;
const spaceIds = {} as Record<LevelLabel, string>;

beforeAll(async () => {
  const organizationId = world.organizationId;
  // Top-level collections: `inherit` resolves to the organization role.
  for (const level of defaultLevels) {
    collectionIds[`${level}`] = (await buildCollection(t.prisma, { organizationId, defaultLevel: level, title: `Collection ${level}` })).id;
  }
  // Spaces in the `comment` collection: `inherit` resolves to comment, which caps editors and above.
  for (const level of defaultLevels) {
    spaceIds[`${level}`] = (
      await buildSpace(t.prisma, { organizationId, parentId: collectionIds.comment, defaultLevel: level, title: `Space ${level}` })
    ).id;
  }
  const teamGranted = await buildMember(t.prisma, { organizationId, role: null });
  const team = await t.prisma.team.create({ data: { id: newId(), organizationId, title: 'Granted' } });
  await t.prisma.teamMember.create({ data: { teamId: team.id, organizationId, userId: teamGranted.userId } });
  await t.prisma.contentGrant.create({
    data: { id: newId(), organizationId, collectionId: collectionIds.comment, teamId: team.id, role: 'edit' },
  });
  people = { ...world, teamGranted };
});

/** The actions GraphQL advertises on a permissions type: its fields. */
function advertisedActions(typeName: string): string[] {
  return Object.keys((schema.getType(typeName) as GraphQLObjectType).getFields());
}

/** The permissions object GraphQL returns to `person` for `field(id)`, or NOT_FOUND. */
async function advertisedTo(
  person: Person,
  field: 'organization' | 'collection' | 'space',
  typeName: string,
  id: string,
): Promise<Advertised> {
  const query = `query ($id: ID!) { ${field}(id: $id) { permissions { ${advertisedActions(typeName).join(' ')} } } }`;
  const res = await t.request('POST', '/graphql', { token: person.token, body: { query, variables: { id } } });
  if (res.body.errors) {
    expect(
      res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code),
      `${field} ${id} for ${person.email}`,
    ).toEqual(['NOT_FOUND']);
    return NOT_FOUND;
  }
  return res.body.data[field].permissions;
}

/** authorize() for every action of the resource's policy, in one context as a request would have. */
async function enforcedFor<Row extends object, P extends Policy>(
  resource: Resource<Row, P>,
  person: Person,
  id: string,
): Promise<Record<string, Outcome>> {
  const ctx = createContext(t.app.services, await authenticate(t.app.services, `Bearer ${person.token}`));
  const actions = Object.keys(resource.policy) as ActionOf<P>[];
  const outcomes = await Promise.all(
    actions.map((action) =>
      authorize(ctx, resource, id, action).then(
        (): Outcome => 'allowed',
        (error: unknown): Outcome => (error instanceof ApiError ? error.status : String(error)),
      ),
    ),
  );
  return Object.fromEntries(actions.map((action, i) => [action, outcomes[i]]));
}

/**
 * Asserts that advertised and enforced agree for every persona x object x action, and returns what was enforced.
 * Content queries are not batched with aliases: the root fields are non-null, so one not-found object would null the
 * answer for all of them.
 */
async function expectAgreement<Row extends object, P extends Policy>(
  resource: Resource<Row, P>,
  field: 'organization' | 'collection' | 'space',
  typeName: string,
  objects: Record<string, string>,
): Promise<Matrix> {
  expect(advertisedActions(typeName).sort(), `${typeName} advertises exactly the actions of the policy`).toEqual(
    Object.keys(resource.policy).sort(),
  );
  const enforced = {} as Matrix;
  // Compared flat, keyed `persona on object: action`, so that a failure's diff names the cell.
  const enforcedCells: Record<string, Outcome> = {};
  const advertisedCells: Record<string, Outcome> = {};
  const visibleWithoutView: string[] = [];
  for (const persona of personas) {
    enforced[persona] = {};
    await Promise.all(
      Object.entries(objects).map(async ([label, id]) => {
        const person = people[persona];
        const [advertised, outcomes] = await Promise.all([advertisedTo(person, field, typeName, id), enforcedFor(resource, person, id)]);
        enforced[persona][label] = outcomes;
        for (const action of Object.keys(resource.policy)) {
          const cell = `${persona} on ${field} ${label}: ${action}`;
          enforcedCells[cell] = outcomes[action];
          advertisedCells[cell] = advertised === NOT_FOUND ? 404 : advertised[action] ? 'allowed' : 403;
        }
        if (advertised !== NOT_FOUND && !advertised.view) visibleWithoutView.push(`${persona} on ${field} ${label}`);
      }),
    );
  }
  expect(enforcedCells).toEqual(advertisedCells);
  // `view` is every policy's weakest action: an object found but not viewable would be a visibility leak.
  expect(visibleWithoutView, 'found by GraphQL but view: false').toEqual([]);
  return enforced;
}

/** Every action of a policy with one outcome. */
const all = (policy: Policy, outcome: Outcome) => Object.fromEntries(Object.keys(policy).map((action) => [action, outcome]));
/** The same outcomes on every object. */
const onEvery = (labels: readonly string[], outcomes: Record<string, Outcome>) =>
  Object.fromEntries(labels.map((label) => [label, outcomes]));
const levelLabels = defaultLevels.map((level): LevelLabel => `${level}`);

describe('organization permissions', () => {
  it('allow exactly what authorize() allows, for every role, a guest and a non-member', async () => {
    const policy = policies.organization;
    const enforced = await expectAgreement(organizations, 'organization', 'OrganizationPermissions', { acme: world.organizationId });
    const on = (persona: Persona) => enforced[persona].acme;
    expect(on('admin')).toEqual(all(policy, 'allowed'));
    expect(on('outsider')).toEqual(all(policy, 404));
    expect(on('guest')).toMatchObject({ view: 'allowed', access: 'allowed', ownTeam: 403, listMembers: 403, admin: 403 });
    expect(on('reader')).toMatchObject({ view: 'allowed', listMembers: 'allowed', createContent: 403, viewBilling: 403 });
    expect(on('creator')).toMatchObject({ createContent: 'allowed', createOpenAPISpec: 'allowed', installIntegration: 403, admin: 403 });
    // A grant on content gives nothing on the organization: the team-granted guest stays a guest there.
    expect(on('teamGranted')).toEqual(on('guest'));
  });
});

describe('collection permissions', () => {
  it('allow exactly what authorize() allows, for every persona on a collection of every default level', async () => {
    const policy = policies.collection;
    const enforced = await expectAgreement(collections, 'collection', 'CollectionPermissions', collectionIds);
    expect(enforced.admin).toEqual(onEvery(levelLabels, all(policy, 'allowed')));
    expect(enforced.guest).toEqual(onEvery(levelLabels, all(policy, 404)));
    expect(enforced.outsider).toEqual(onEvery(levelLabels, all(policy, 404)));
    expect(enforced.creator.null).toEqual(all(policy, 404));
    // Top-level `inherit` is the organization role.
    expect(enforced.creator.inherit).toEqual(all(policy, 'allowed'));
    expect(enforced.reviewer.inherit).toMatchObject({ view: 'allowed', admin: 403, create: 403 });
    // A default level caps the role.
    expect(enforced.creator.edit).toMatchObject({ view: 'allowed', admin: 403, create: 403 });
    expect(enforced.reader.admin).toMatchObject({ view: 'allowed', create: 403 });
    // A team grant opens its collection, uncapped by the default level, and nothing else.
    expect(enforced.teamGranted.comment).toEqual({ view: 'allowed', admin: 403, viewInviteLinks: 403, create: 403 });
    for (const label of levelLabels.filter((label) => label !== 'comment')) {
      expect(enforced.teamGranted[label], `teamGranted on collection ${label}`).toEqual(all(policy, 404));
    }
  });
});

describe('space permissions', () => {
  it('follow the effective levels of the fixtures', async () => {
    const rows = await t.prisma.space.findMany({
      where: { id: { in: Object.values(spaceIds) } },
      select: { id: true, effectiveLevel: true },
    });
    const effective = Object.fromEntries(rows.map((row) => [row.id, row.effectiveLevel]));
    expect(effective[spaceIds.inherit]).toBe('comment');
    expect(effective[spaceIds.null]).toBeNull();
    expect(effective[spaceIds.edit]).toBe('edit');
  });

  it('allow exactly what authorize() allows, for every persona on a space of every default level', async () => {
    const policy = policies.space;
    const enforced = await expectAgreement(spaces, 'space', 'SpacePermissions', spaceIds);
    expect(enforced.admin).toEqual(onEvery(levelLabels, all(policy, 'allowed')));
    expect(enforced.guest).toEqual(onEvery(levelLabels, all(policy, 404)));
    expect(enforced.outsider).toEqual(onEvery(levelLabels, all(policy, 404)));
    for (const persona of ['creator', 'reviewer', 'editor', 'commenter', 'reader'] as const) {
      expect(enforced[persona].null, `${persona} on a space without default access`).toEqual(all(policy, 404));
    }
    expect(enforced.reader.inherit).toMatchObject({ view: 'allowed', access: 'allowed', comment: 403, edit: 403 });
    // `inherit` under the comment collection caps an editor at comment.
    expect(enforced.editor.inherit).toMatchObject({ view: 'allowed', comment: 'allowed', edit: 403 });
    expect(enforced.editor.edit).toMatchObject({ edit: 'allowed', triggerGitSync: 'allowed', merge: 403, admin: 403 });
    expect(enforced.reviewer.review).toMatchObject({ merge: 'allowed', review: 'allowed', admin: 403 });
    expect(enforced.creator.create).toMatchObject({ admin: 'allowed', viewInviteLinks: 'allowed', installIntegration: 'allowed' });
    expect(enforced.creator.read).toMatchObject({ view: 'allowed', comment: 403, admin: 403 });
    // The team's edit grant on the collection reaches every space in it, whatever the space's default level.
    expect(enforced.teamGranted).toEqual(
      onEvery(levelLabels, {
        ...all(policy, 403),
        view: 'allowed',
        access: 'allowed',
        comment: 'allowed',
        edit: 'allowed',
        triggerGitSync: 'allowed',
      }),
    );
  });
});
