// Custom fields: defining them (create, list with pages, get, update, delete) and a space's values of them (read in one
// statement, set all or nothing), through GitBook's 0.91.0 client and spec (the only version with these operations);
// limits; who may do what across organizations.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CustomFieldType } from '../../node_modules/gitbook-api-0091/dist/client.js';
import { type Person, useApi, walk } from '../support/app.js';
import { buildMember, buildOrganization, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const fields = (org: string, rest = '') => `/v1/orgs/${org}/custom-fields${rest}`;
const create = (body: unknown, org = acme, token = world.admin.token) => t.request('POST', fields(org), { token, body });
const values = (spaceId: string) => `/v1/spaces/${spaceId}/custom-fields`;
const setValues = (spaceId: string, body: unknown, token = world.admin.token) => t.request('PATCH', values(spaceId), { token, body });

async function organization(title: string) {
  const { organization, owner } = await buildOrganization(t.prisma, { title });
  return { org: organization.id, owner };
}

describe('POST /v1/orgs/{organizationId}/custom-fields', () => {
  it('creates a field through the official client, matching the published spec, at its Location', async () => {
    const api = gitbookClient('0091', t.url, world.admin.token);
    const { data, status, headers } = await api.orgs.createOrganizationCustomField(acme, {
      name: 'audience',
      type: 'select:multi' as CustomFieldType,
      title: 'Audience',
      options: ['internal', 'public'],
    });
    expect(status).toBe(201);
    expectMatchesSpec('0091', 'post', '/orgs/{organizationId}/custom-fields', 201, data);
    expect(data).toMatchObject({
      name: 'audience',
      type: 'select:multi',
      title: 'Audience',
      description: '',
      placeholder: '',
      options: ['internal', 'public'],
      permissions: { view: true, edit: true },
    });
    expect(headers.get('location')).toBe(data.urls.location);
    expect(data.urls.location).toMatch(new RegExp(`/v1/orgs/${acme}/custom-fields/audience$`));
    const row = await t.prisma.customField.findUniqueOrThrow({
      where: { organizationId_name: { organizationId: acme, name: 'audience' } },
    });
    expect(row.type).toBe('select_multi');
  });

  it('refuses a duplicate name in the organization (409), not in another one', async () => {
    expect((await create({ name: 'owner', type: 'text' })).status).toBe(201);
    const again = await create({ name: 'owner', type: 'number' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('A custom field named "owner" already exists in this organization.');
    expect((await create({ name: 'owner', type: 'text' }, world.secondOrganizationId)).status).toBe(201);
  });

  it('enforces every limit with a 400 naming the field', async () => {
    const refused: [unknown, string][] = [
      [{ type: 'text' }, 'name'],
      [{ name: '', type: 'text' }, 'name'],
      [{ name: 'x'.repeat(51), type: 'text' }, 'name'],
      [{ name: 'Upper', type: 'text' }, 'name'],
      [{ name: 'with space', type: 'text' }, 'name'],
      [{ name: 'typeless' }, 'type'],
      [{ name: 'odd', type: 'select' }, 'type'],
      [{ name: 'long', type: 'text', title: 'x'.repeat(101) }, 'title'],
      [{ name: 'long', type: 'text', description: 'x'.repeat(201) }, 'description'],
      [{ name: 'long', type: 'text', placeholder: 'x'.repeat(101) }, 'placeholder'],
      [{ name: 'pick', type: 'select:single' }, 'options'],
      [{ name: 'pick', type: 'select:single', options: [] }, 'options'],
      [{ name: 'pick', type: 'select:single', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 'options'],
      [{ name: 'pick', type: 'select:single', options: ['a', 'a'] }, 'options'],
      [{ name: 'pick', type: 'select:single', options: [''] }, 'options.0'],
      [{ name: 'pick', type: 'select:single', options: ['x'.repeat(41)] }, 'options.0'],
      [{ name: 'plain', type: 'text', options: ['a'] }, 'options'],
    ];
    for (const [body, field] of refused) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field.replace('.', '\\.')}"`));
    }
    expect(await t.prisma.customField.count({ where: { name: { in: ['typeless', 'odd', 'long', 'pick', 'plain'] } } })).toBe(0);
    for (const type of ['text', 'number', 'boolean', 'tags']) {
      expect((await create({ name: `every-${type}_1`, type })).status).toBe(201);
    }
  });

  it('is for organization admins: 403 for other members, 404 outside, 401 without a token', async () => {
    for (const member of [world.creator, world.editor, world.reader, world.guest]) {
      expect((await create({ name: 'nope', type: 'text' }, acme, member.token)).status).toBe(403);
    }
    expect((await create({ name: 'nope', type: 'text' }, acme, world.outsider.token)).status).toBe(404);
    expect((await t.request('POST', fields(acme), { body: { name: 'nope', type: 'text' } })).status).toBe(401);
    expect(await t.prisma.customField.count({ where: { name: 'nope' } })).toBe(0);
  });
});

describe('GET /v1/orgs/{organizationId}/custom-fields', () => {
  it('lists the fields by name to every member, matching the spec, walking pages at one statement count', async () => {
    const { org, owner } = await organization('Listed');
    const names = ['zeta', 'alpha', 'mid-1', 'mid_2', 'beta'];
    for (const name of names) expect((await create({ name, type: 'text' }, org, owner.token)).status).toBe(201);
    const guest = await buildMember(t.prisma, { organizationId: org, role: null });
    const api = gitbookClient('0091', t.url, guest.token);
    const { data } = await api.orgs.listOrganizationCustomFields(org);
    expectMatchesSpec('0091', 'get', '/orgs/{organizationId}/custom-fields', 200, data);
    expect(data.items.map((field) => field.name)).toEqual([...names].sort());
    expect(data.count).toBe(5);
    expect((data.items[0] as unknown as { permissions: unknown }).permissions).toEqual({ view: true, edit: false });

    // walk() fails on any page that is not a 200.
    const { items, pages } = await walk<{ name: string }>(t, fields(org, '?limit=2'), { token: owner.token });
    expect(items.map((field) => field.name)).toEqual([...names].sort());
    expect(pages).toBe(3);
    const one = await t.counted('GET', fields(org, '?limit=1'), { token: owner.token });
    const all = await t.counted('GET', fields(org, '?limit=1000'), { token: owner.token });
    expect(all.body.items).toHaveLength(5);
    expect(all.statements).toBe(one.statements);

    expect((await t.request('GET', fields(org, '?limit=1001'), { token: owner.token })).status).toBe(400);
    expect((await t.request('GET', fields(org), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', fields(org))).status).toBe(401);
  });
});

describe('/v1/orgs/{organizationId}/custom-fields/{fieldName}', () => {
  let org: string;
  let owner: Person;
  let reader: Person;
  beforeAll(async () => {
    ({ org, owner } = await organization('One field'));
    reader = await buildMember(t.prisma, { organizationId: org, role: 'read' });
  });

  it('gets a field by name through the official client, matching the spec; 404 for an unknown name or organization', async () => {
    await create({ name: 'status', type: 'select:single', options: ['draft', 'final'], placeholder: 'Pick one' }, org, owner.token);
    const api = gitbookClient('0091', t.url, reader.token);
    const { data } = await api.orgs.getOrganizationCustomFieldByName(org, 'status');
    expectMatchesSpec('0091', 'get', '/orgs/{organizationId}/custom-fields/{fieldName}', 200, data);
    expect(data).toMatchObject({ name: 'status', type: 'select:single', placeholder: 'Pick one', options: ['draft', 'final'] });
    const missing = await t.request('GET', fields(org, '/unknown'), { token: reader.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Custom field not found');
    expect((await t.request('GET', fields(org, '/status'), { token: world.outsider.token })).status).toBe(404);
    // Another organization's field is not found through this one.
    expect((await t.request('GET', fields(acme, '/status'), { token: world.admin.token })).status).toBe(404);
  });

  it('updates title, description, placeholder and options through the official client; null clears a text', async () => {
    await create({ name: 'team', type: 'text', title: 'Team', description: 'Who owns it' }, org, owner.token);
    t.clock.advanceMs(60_000);
    const api = gitbookClient('0091', t.url, owner.token);
    const { data } = await api.orgs.updateOrganizationCustomField(org, 'team', { title: 'Owning team', placeholder: 'A team' });
    expectMatchesSpec('0091', 'patch', '/orgs/{organizationId}/custom-fields/{fieldName}', 200, data);
    expect(data).toMatchObject({ name: 'team', title: 'Owning team', description: 'Who owns it', placeholder: 'A team' });
    expect(data.updatedAt > data.createdAt).toBe(true);
    const cleared = await t.request('PATCH', fields(org, '/team'), { token: owner.token, body: { description: null } });
    expect(cleared.body).toMatchObject({ title: 'Owning team', description: '' });
  });

  it('never changes the name or the type (400 naming the field), and enforces the limits', async () => {
    await create({ name: 'fixed', type: 'text' }, org, owner.token);
    const refused: [unknown, string][] = [
      [{ name: 'renamed' }, 'name'],
      [{ name: 'fixed' }, 'name'],
      [{ type: 'number' }, 'type'],
      [{ title: 'x'.repeat(101) }, 'title'],
      [{ options: ['a'] }, 'options'],
    ];
    for (const [body, field] of refused) {
      const res = await t.request('PATCH', fields(org, '/fixed'), { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field}"`));
    }
    expect((await t.request('PATCH', fields(org, '/fixed'), { token: owner.token, body: { name: 'renamed' } })).body.error.message).toBe(
      'Invalid "name": cannot be changed.',
    );
    const row = await t.prisma.customField.findUniqueOrThrow({ where: { organizationId_name: { organizationId: org, name: 'fixed' } } });
    expect([row.type, row.title]).toEqual(['text', null]);
  });

  it('is for admins: 403 for members, 404 outside and for an unknown name', async () => {
    await create({ name: 'guarded', type: 'boolean' }, org, owner.token);
    expect((await t.request('PATCH', fields(org, '/guarded'), { token: reader.token, body: { title: 'No' } })).status).toBe(403);
    expect((await t.request('DELETE', fields(org, '/guarded'), { token: reader.token })).status).toBe(403);
    expect((await t.request('PATCH', fields(org, '/guarded'), { token: world.outsider.token, body: { title: 'No' } })).status).toBe(404);
    expect((await t.request('DELETE', fields(org, '/guarded'), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('PATCH', fields(org, '/unknown'), { token: owner.token, body: { title: 'No' } })).status).toBe(404);
    expect((await t.request('DELETE', fields(org, '/unknown'), { token: owner.token })).status).toBe(404);
    expect((await t.request('GET', fields(org, '/guarded'), { token: reader.token })).body.title).toBe('');
  });

  it('deletes a field with every space’s value of it, through the official client', async () => {
    await create({ name: 'doomed', type: 'number' }, org, owner.token);
    await create({ name: 'kept', type: 'number' }, org, owner.token);
    const space = await buildSpace(t.prisma, { organizationId: org });
    expect((await setValues(space.id, { values: { doomed: { value: 1 }, kept: { value: 2 } } }, owner.token)).status).toBe(204);
    const api = gitbookClient('0091', t.url, owner.token);
    const { status } = await api.orgs.deleteOrganizationCustomField(org, 'doomed');
    expect(status).toBe(204);
    expect((await t.request('GET', fields(org, '/doomed'), { token: owner.token })).status).toBe(404);
    expect((await t.prisma.customFieldValue.findMany({ where: { spaceId: space.id } })).map((row) => row.value)).toEqual([2]);
  });
});

describe('/v1/spaces/{spaceId}/custom-fields', () => {
  let org: string;
  let owner: Person;
  let editor: Person;
  let reader: Person;
  let spaceId: string;
  beforeAll(async () => {
    ({ org, owner } = await organization('Valued'));
    editor = await buildMember(t.prisma, { organizationId: org, role: 'edit' });
    reader = await buildMember(t.prisma, { organizationId: org, role: 'read' });
    spaceId = (await buildSpace(t.prisma, { organizationId: org })).id;
    for (const body of [
      { name: 'summary', type: 'text' },
      { name: 'score', type: 'number' },
      { name: 'public', type: 'boolean' },
      { name: 'labels', type: 'tags' },
      { name: 'platforms', type: 'select:multi', options: ['web', 'ios', 'android'] },
      { name: 'stage', type: 'select:single', options: ['alpha', 'beta'] },
    ]) {
      expect((await create(body, org, owner.token)).status).toBe(201);
    }
  });

  it('sets values of every type through the official client and reads them back, matching the spec', async () => {
    const api = gitbookClient('0091', t.url, editor.token);
    const set = {
      summary: 'Our API',
      score: 4.5,
      public: false,
      labels: ['api', 'rest'],
      platforms: ['ios', 'web'],
      stage: ['beta'],
    };
    const { status } = await api.spaces.updateSpaceCustomFields(spaceId, {
      values: Object.fromEntries(Object.entries(set).map(([name, value]) => [name, { value }])),
    });
    expect(status).toBe(204);
    const { data } = await gitbookClient('0091', t.url, reader.token).spaces.getSpaceCustomFields(spaceId);
    expectMatchesSpec('0091', 'get', '/spaces/{spaceId}/custom-fields', 200, data);
    expect(data.map((item) => [item.customField.name, item.value])).toEqual(
      ['labels', 'platforms', 'public', 'score', 'stage', 'summary'].map((name) => [name, set[name as keyof typeof set]]),
    );
  });

  it('lists a field the space has no value for without a value; null removes a value', async () => {
    const other = (await buildSpace(t.prisma, { organizationId: org })).id;
    expect((await t.request('PATCH', values(other), { body: { values: { score: { value: 1 } } } })).status).toBe(401);
    expect((await setValues(other, { values: { score: { value: 1 }, summary: { value: 'x' } } }, owner.token)).status).toBe(204);
    expect((await setValues(other, { values: { summary: { value: null } } }, owner.token)).status).toBe(204);
    const res = await t.request('GET', values(other), { token: reader.token });
    expect(res.status).toBe(200);
    expectMatchesSpec('0091', 'get', '/spaces/{spaceId}/custom-fields', 200, res.body);
    const byName = Object.fromEntries(res.body.map((item: { customField: { name: string } }) => [item.customField.name, item]));
    expect(byName.score).toHaveProperty('value', 1);
    expect(byName.summary).not.toHaveProperty('value');
    expect(byName.labels).not.toHaveProperty('value');
    expect(byName.labels.customField).not.toHaveProperty('options');
    expect(await t.prisma.customFieldValue.count({ where: { spaceId: other } })).toBe(1);
  });

  it('validates every value against its field’s type, all or nothing; unknown names are 400', async () => {
    const before = await t.prisma.customFieldValue.findMany({ where: { spaceId }, orderBy: { customFieldId: 'asc' } });
    const refused: [Record<string, unknown>, string][] = [
      [{ summary: 'x'.repeat(257) }, 'values.summary.value'],
      [{ summary: 3 }, 'values.summary.value'],
      [{ score: '3' }, 'values.score.value'],
      [{ public: 'yes' }, 'values.public.value'],
      [{ labels: 'api' }, 'values.labels.value'],
      [{ labels: ['x'.repeat(257)] }, 'values.labels.value.0'],
      [{ labels: ['a', 'a'] }, 'values.labels.value'],
      [{ labels: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'values.labels.value'],
      [{ platforms: ['desktop'] }, 'values.platforms.value.0'],
      [{ platforms: ['web', 'web'] }, 'values.platforms.value'],
      [{ stage: ['alpha', 'beta'] }, 'values.stage.value'],
      [{ stage: 'alpha' }, 'values.stage.value'],
      [{ unknown: 'x' }, 'values.unknown'],
    ];
    for (const [change, field] of refused) {
      // A valid value beside the invalid one is not written either.
      const body = {
        values: { score: { value: 99 }, ...Object.fromEntries(Object.entries(change).map(([name, value]) => [name, { value }])) },
      };
      const res = await setValues(spaceId, body, editor.token);
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^Invalid "${field.replaceAll('.', '\\.')}"`));
    }
    expect((await setValues(spaceId, { values: { score: {} } }, editor.token)).status).toBe(400);
    expect((await setValues(spaceId, {}, editor.token)).body.error.message).toMatch(/^Invalid "values"/);
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { value: 1 }]));
    expect((await setValues(spaceId, { values: tooMany }, editor.token)).body.error.message).toMatch(/^Invalid "values"/);
    expect(await t.prisma.customFieldValue.findMany({ where: { spaceId }, orderBy: { customFieldId: 'asc' } })).toEqual(before);
  });

  it('drops a removed option from the values that held it', async () => {
    const res = await t.request('PATCH', fields(org, '/platforms'), { token: owner.token, body: { options: ['android', 'web'] } });
    expect(res.status).toBe(200);
    const items = (await t.request('GET', values(spaceId), { token: reader.token })).body;
    expect(items.find((item: { customField: { name: string } }) => item.customField.name === 'platforms').value).toEqual(['web']);
  });

  it('needs view to read and edit to write: 403 for readers, 404 outside the organization, 409 on a deleted space', async () => {
    expect((await setValues(spaceId, { values: { score: { value: 1 } } }, reader.token)).status).toBe(403);
    expect((await setValues(spaceId, { values: { score: { value: 1 } } }, world.outsider.token)).status).toBe(404);
    expect((await t.request('GET', values(spaceId), { token: world.outsider.token })).status).toBe(404);
    expect((await t.request('GET', values(spaceId))).status).toBe(401);
    const deleted = await buildSpace(t.prisma, { organizationId: org, deletedAt: t.clock.now() });
    expect((await setValues(deleted.id, { values: { score: { value: 1 } } }, owner.token)).status).toBe(409);
  });

  it('reads the values in one statement count whatever the number of fields', async () => {
    const few = await t.counted('GET', values(spaceId), { token: reader.token });
    for (let i = 0; i < 20; i++) await create({ name: `extra-${i}`, type: 'number' }, org, owner.token);
    await setValues(
      spaceId,
      { values: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`extra-${i}`, { value: i }])) },
      owner.token,
    );
    const many = await t.counted('GET', values(spaceId), { token: reader.token });
    expect(many.body.length).toBe(few.body.length + 20);
    expect(many.statements).toBe(few.statements);
  });
});

describe('the events of custom fields', () => {
  it('records a definition created, updated with the fields that changed, and deleted; and a space’s values set', async () => {
    const { org, owner } = await organization('Recorded');
    const created = await create({ name: 'tier', type: 'select:single', title: 'Tier', options: ['gold', 'silver'] }, org, owner.token);
    expect(created.status, created.text).toBe(201);
    const at = fields(org, '/tier');
    t.clock.advanceMs(1000);
    const patch = { title: 'Support tier', options: ['gold'] };
    expect((await t.request('PATCH', at, { token: owner.token, body: patch })).status).toBe(200);
    t.clock.advanceMs(1000);
    const space = await buildSpace(t.prisma, { organizationId: org });
    expect((await setValues(space.id, { values: { tier: { value: ['gold'] } } }, owner.token)).status).toBe(204);
    t.clock.advanceMs(1000);
    expect((await t.request('DELETE', at, { token: owner.token })).status).toBe(204);
    const events = await t.prisma.auditEvent.findMany({ where: { organizationId: org }, orderBy: { occurredAt: 'asc' } });
    expect(events.map((event) => [event.action, event.actorId, event.targetType, event.targetLabel])).toEqual([
      ['custom_field_created', owner.userId, 'custom-field', 'tier'],
      ['custom_field_updated', owner.userId, 'custom-field', 'tier'],
      ['space_custom_fields_updated', owner.userId, 'space', space.title],
      ['custom_field_deleted', owner.userId, 'custom-field', 'tier'],
    ]);
    expect(events[1].payload).toMatchObject({
      changed: { title: { from: 'Tier', to: 'Support tier' }, options: { from: ['gold', 'silver'], to: ['gold'] } },
    });
    expect(events[2]).toMatchObject({ spaceId: space.id, payload: { values: { tier: ['gold'] } } });
  });

  it('records nothing for a refused change', async () => {
    const { org, owner } = await organization('Refusing');
    expect((await create({ name: 'dup', type: 'text' }, org, owner.token)).status).toBe(201);
    const before = await t.prisma.auditEvent.count({ where: { organizationId: org } });
    expect((await create({ name: 'dup', type: 'text' }, org, owner.token)).status).toBe(409);
    expect((await t.request('DELETE', fields(org, '/missing'), { token: owner.token })).status).toBe(404);
    const space = await buildSpace(t.prisma, { organizationId: org });
    expect((await setValues(space.id, { values: { dup: { value: 7 } } }, owner.token)).status).toBe(400);
    expect(await t.prisma.auditEvent.count({ where: { organizationId: org } })).toBe(before);
  });
});
