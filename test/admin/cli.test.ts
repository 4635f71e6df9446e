// The admin commands (src/admin/commands.ts) against a real PostgreSQL, and the CLI (src/admin/cli.ts) as a process.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bootstrap, createOrganization, createToken, createUser, parseExpiry, revokeToken } from '../../src/admin/commands.js';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { hashToken } from '../../src/kernel/ids.js';
import { adminError } from '../support/admin.js';
import { createTestDatabase as createSharedTestDatabase } from '../support/database.js';
import { eventsOf } from '../support/events.js';

interface TestDatabase extends Database {
  url: string;
  drop(): Promise<void>;
}

/** A migrated database of the shared test server (test/support/database.ts), with a Prisma client on it. */
async function createTestDatabase(): Promise<TestDatabase> {
  const database = await createSharedTestDatabase();
  const db = connectDatabase(database.url);
  return {
    ...db,
    url: database.url,
    drop: async () => {
      await db.close();
      await database.drop();
    },
  };
}

let db: TestDatabase;
const unique = () => randomBytes(4).toString('hex');
const email = (who = 'user') => `${who}-${unique()}@example.com`;

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('createUser', () => {
  it('creates a user with a lowercased e-mail and a default display name', async () => {
    const address = email('Alice');
    const user = await createUser(db.prisma, { email: `  ${address.toUpperCase()} ` });
    expect(user).toEqual({
      object: 'user',
      id: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
      email: address.toLowerCase(),
      displayName: address.split('@')[0].toLowerCase(),
    });
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.email).toBe(address.toLowerCase());
  });

  it('uses the given name', async () => {
    const user = await createUser(db.prisma, { email: email(), name: 'Alice Liddell' });
    expect(user.displayName).toBe('Alice Liddell');
  });

  it('refuses a duplicate e-mail, whatever its case', async () => {
    const address = email();
    await createUser(db.prisma, { email: address });
    const error = await adminError(createUser(db.prisma, { email: address.toUpperCase() }));
    expect(error.message).toBe(`A user with e-mail ${address} already exists`);
    expect(await db.prisma.user.count({ where: { email: address } })).toBe(1);
  });

  it('refuses an invalid or missing e-mail', async () => {
    expect((await adminError(createUser(db.prisma, { email: 'not-an-email' }))).message).toMatch(/not a valid e-mail/);
    expect((await adminError(createUser(db.prisma, { email: 'a@b' }))).message).toMatch(/not a valid e-mail/);
    expect((await adminError(createUser(db.prisma, { email: '' }))).message).toMatch(/e-mail address is required/);
  });
});

describe('createOrganization', () => {
  it('creates the organization and makes the owner its admin', async () => {
    const owner = await createUser(db.prisma, { email: email('owner') });
    const org = await createOrganization(db.prisma, { title: '  Acme Docs  ', ownerEmail: owner.email.toUpperCase() });
    expect(org).toEqual({ object: 'organization', id: expect.any(String), title: 'Acme Docs', owner: owner.id });
    const members = await db.prisma.member.findMany({ where: { organizationId: org.id } });
    expect(members.map((m) => ({ userId: m.userId, role: m.role }))).toEqual([{ userId: owner.id, role: 'admin' }]);
    // Recorded as the system's, from a script.
    expect(await eventsOf(db.prisma, { organizationId: org.id })).toMatchObject([
      {
        action: 'organization_created',
        actorType: 'system',
        actorId: 'system',
        actorLabel: 'System',
        source: 'script',
        targetType: 'organization',
        targetId: org.id,
        targetLabel: 'Acme Docs',
        payload: { owner: owner.id },
      },
    ]);
  });

  it('refuses an unknown owner, and creates nothing', async () => {
    const before = await db.prisma.organization.count();
    const missing = email('ghost');
    const error = await adminError(createOrganization(db.prisma, { title: 'Ghost org', ownerEmail: missing }));
    expect(error.message).toBe(`No user with e-mail ${missing}`);
    expect(await db.prisma.organization.count()).toBe(before);
  });

  it('refuses a title shorter than 2 or longer than 255 characters', async () => {
    const owner = await createUser(db.prisma, { email: email('owner') });
    expect((await adminError(createOrganization(db.prisma, { title: ' A ', ownerEmail: owner.email }))).message).toMatch(/2 to 255/);
    expect((await adminError(createOrganization(db.prisma, { title: 'x'.repeat(256), ownerEmail: owner.email }))).message).toMatch(
      /2 to 255/,
    );
    const longest = await createOrganization(db.prisma, { title: 'x'.repeat(255), ownerEmail: owner.email });
    expect(longest.title).toHaveLength(255);
  });
});

describe('addMember', () => {
  async function orgWithOwner() {
    const owner = await createUser(db.prisma, { email: email('owner') });
    return createOrganization(db.prisma, { title: 'Members org', ownerEmail: owner.email });
  }

  it('adds a member, then updates the role of an existing one', async () => {
    const org = await orgWithOwner();
    const user = await createUser(db.prisma, { email: email('member') });
    expect(await addMember(db.prisma, { organizationId: org.id, email: user.email, role: 'edit' })).toEqual({
      object: 'member',
      organization: org.id,
      user: user.id,
      role: 'edit',
      updated: false,
    });
    expect(await addMember(db.prisma, { organizationId: org.id, email: user.email, role: 'review' })).toMatchObject({
      role: 'review',
      updated: true,
    });
    const row = await db.prisma.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: org.id, userId: user.id } } });
    expect(row.role).toBe('review');
    // The same role again changes nothing, and records nothing.
    await addMember(db.prisma, { organizationId: org.id, email: user.email, role: 'review' });
    const events = await eventsOf(db.prisma, { targetId: user.id });
    expect(events.map((event) => [event.action, event.payload, event.source, event.targetLabel]).sort()).toEqual([
      ['member_joined', { role: 'edit' }, 'script', user.displayName],
      ['member_role_updated', { role: { from: 'edit', to: 'review' } }, 'script', user.displayName],
    ]);
  });

  it('accepts every role, and "guest" as no role', async () => {
    const org = await orgWithOwner();
    for (const role of ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await createUser(db.prisma, { email: email(role) });
      expect((await addMember(db.prisma, { organizationId: org.id, email: user.email, role })).role).toBe(role);
    }
    const guest = await createUser(db.prisma, { email: email('guest') });
    expect((await addMember(db.prisma, { organizationId: org.id, email: guest.email, role: 'guest' })).role).toBeNull();
    const row = await db.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: org.id, userId: guest.id } },
    });
    expect(row.role).toBeNull();
  });

  it('refuses a bad role, an unknown organization and an unknown user', async () => {
    const org = await orgWithOwner();
    const user = await createUser(db.prisma, { email: email('member') });
    expect((await adminError(addMember(db.prisma, { organizationId: org.id, email: user.email, role: 'owner' }))).message).toMatch(
      /Unknown role "owner"/,
    );
    expect((await adminError(addMember(db.prisma, { organizationId: 'nope', email: user.email, role: 'read' }))).message).toBe(
      'No organization with id nope',
    );
    const missing = email('ghost');
    expect((await adminError(addMember(db.prisma, { organizationId: org.id, email: missing, role: 'read' }))).message).toBe(
      `No user with e-mail ${missing}`,
    );
    expect(await db.prisma.member.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await eventsOf(db.prisma, { targetId: user.id })).toEqual([]);
  });
});

describe('tokens', () => {
  it('creates a token whose secret is stored only as its hash', async () => {
    const user = await createUser(db.prisma, { email: email('tok') });
    const created = await createToken(db.prisma, { email: user.email, label: 'ci' });
    expect(created).toEqual({
      object: 'api-token',
      id: expect.any(String),
      userId: user.id,
      token: expect.stringMatching(/^dpa_[0-9A-Za-z]{40}$/),
      expiresAt: null,
    });
    const row = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ userId: user.id, label: 'ci', tokenHash: hashToken(created.token), revokedAt: null });
    // No column of the raw row holds the secret.
    const raw = await db.pool.query('SELECT * FROM "ApiToken" WHERE id = $1', [created.id]);
    expect(raw.rows).toHaveLength(1);
    for (const value of Object.values(raw.rows[0] as Record<string, unknown>)) {
      expect(String(value)).not.toContain(created.token);
      expect(String(value)).not.toContain(created.token.slice(4));
    }
  });

  it('gives a token an expiry from a duration or a date-time in the future, and refuses any other', async () => {
    const now = new Date('2026-11-23T12:00:00.000Z');
    expect(parseExpiry('90d', now).toISOString()).toBe('2027-02-21T12:00:00.000Z');
    expect(parseExpiry('12h', now).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(parseExpiry('30m', now).toISOString()).toBe('2026-11-23T12:30:00.000Z');
    expect(parseExpiry('2027-01-01T00:00:00+01:00', now).toISOString()).toBe('2026-12-31T23:00:00.000Z');
    for (const bad of ['soon', '90', '1w', '2027-01-01', '']) {
      expect(() => parseExpiry(bad, now)).toThrow(/Invalid expiry .*: give a duration such as 90d/);
    }
    expect(() => parseExpiry('2026-11-23T11:00:00Z', now)).toThrow('The expiry 2026-11-23T11:00:00.000Z is not in the future');
    expect(() => parseExpiry('0m', now)).toThrow(/is not in the future/);

    const user = await createUser(db.prisma, { email: email('tok') });
    const created = await createToken(db.prisma, { email: user.email, expires: '1h' });
    const row = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.expiresAt?.toISOString()).toBe(created.expiresAt);
  });

  it('refuses a token for an unknown user', async () => {
    const missing = email('ghost');
    expect((await adminError(createToken(db.prisma, { email: missing }))).message).toBe(`No user with e-mail ${missing}`);
  });

  it('records its creation and revocation in every organization its user is in at the time, and none elsewhere', async () => {
    const user = await createUser(db.prisma, { email: email('tok') });
    const loner = await createToken(db.prisma, { email: user.email, label: 'before' });
    expect(await eventsOf(db.prisma, { targetId: loner.id })).toEqual([]);
    const [first, second] = [
      await createOrganization(db.prisma, { title: 'Token org one', ownerEmail: user.email }),
      await createOrganization(db.prisma, { title: 'Token org two', ownerEmail: user.email }),
    ];
    const { id } = await createToken(db.prisma, { email: user.email, label: 'ci', expires: '1h' });
    await revokeToken(db.prisma, { id });
    await adminError(revokeToken(db.prisma, { id }));
    const events = await eventsOf(db.prisma, { targetId: id });
    expect(events.map((event) => [event.action, event.organizationId]).sort()).toEqual(
      [
        ['api_token_created', first.id],
        ['api_token_created', second.id],
        ['api_token_revoked', first.id],
        ['api_token_revoked', second.id],
      ].sort(),
    );
    for (const event of events) {
      expect(event).toMatchObject({ actorType: 'system', source: 'script', targetType: 'api-token', targetLabel: 'ci' });
      expect(event.payload).toMatchObject({ userId: user.id });
    }
  });

  it('revokes a token once; a second revocation and an unknown id are errors', async () => {
    const user = await createUser(db.prisma, { email: email('tok') });
    const { id } = await createToken(db.prisma, { email: user.email });
    const revoked = await revokeToken(db.prisma, { id });
    expect(revoked).toEqual({ object: 'api-token', id, revokedAt: expect.any(String) });
    const row = await db.prisma.apiToken.findUniqueOrThrow({ where: { id } });
    expect(row.revokedAt?.toISOString()).toBe(revoked.revokedAt);
    expect((await adminError(revokeToken(db.prisma, { id }))).message).toBe(`API token ${id} was already revoked at ${revoked.revokedAt}`);
    expect((await adminError(revokeToken(db.prisma, { id: 'nope' }))).message).toBe('No API token with id nope');
  });
});

describe('bootstrap', () => {
  it('does nothing on a database that has users', async () => {
    await createUser(db.prisma, { email: email() });
    const counts = async () => [await db.prisma.user.count(), await db.prisma.organization.count(), await db.prisma.apiToken.count()];
    const before = await counts();
    expect(await bootstrap(db.prisma)).toBeNull();
    expect(await counts()).toEqual(before);
  });

  it('on an empty database creates exactly one user, organization, admin member and token, even when run twice at once', async () => {
    const empty = await createTestDatabase();
    try {
      const results = await Promise.all([bootstrap(empty.prisma, { title: 'First' }), bootstrap(empty.prisma, { title: 'Second' })]);
      const created = results.filter((r) => r !== null);
      expect(created).toHaveLength(1);
      const result = created[0]!;
      expect(result).toEqual({
        organizationId: expect.any(String),
        userId: expect.any(String),
        email: 'admin@example.com',
        tokenId: expect.any(String),
        token: expect.stringMatching(/^dpa_/),
      });

      const [users, orgs, members, tokens] = await Promise.all([
        empty.prisma.user.findMany(),
        empty.prisma.organization.findMany(),
        empty.prisma.member.findMany(),
        empty.prisma.apiToken.findMany(),
      ]);
      expect(users.map((u) => [u.id, u.email])).toEqual([[result.userId, 'admin@example.com']]);
      expect(orgs).toHaveLength(1);
      expect(orgs[0].id).toBe(result.organizationId);
      expect(['First', 'Second']).toContain(orgs[0].title);
      expect(members.map((m) => [m.organizationId, m.userId, m.role])).toEqual([[result.organizationId, result.userId, 'admin']]);
      expect(tokens.map((t) => [t.userId, t.tokenHash])).toEqual([[result.userId, hashToken(result.token)]]);
      expect((await eventsOf(empty.prisma, { organizationId: result.organizationId })).map((event) => event.action).sort()).toEqual([
        'api_token_created',
        'organization_created',
      ]);

      expect(await bootstrap(empty.prisma)).toBeNull();
    } finally {
      await empty.drop();
    }
  }, 60_000);

  it('uses the given e-mail and title, and validates them', async () => {
    const empty = await createTestDatabase();
    try {
      expect((await adminError(bootstrap(empty.prisma, { email: 'nope' }))).message).toMatch(/not a valid e-mail/);
      expect((await adminError(bootstrap(empty.prisma, { title: 'x' }))).message).toMatch(/2 to 255/);
      const result = await bootstrap(empty.prisma, { email: 'Root@Example.org', title: 'Docs Inc' });
      expect(result?.email).toBe('root@example.org');
      expect((await empty.prisma.organization.findFirstOrThrow()).title).toBe('Docs Inc');
    } finally {
      await empty.drop();
    }
  }, 60_000);
});

describe('CLI process', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const exec = promisify(execFile);

  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { ...process.env, DATABASE_URL: db.url };
    try {
      const { stdout, stderr } = await exec('npx', ['tsx', 'src/admin/cli.ts', ...args], { cwd: root, env, timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      if (typeof e.code !== 'number') throw error;
      return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  /** What the CLI wrote to stderr, without what npx may write there of its own. */
  const errorLines = (stderr: string) => stderr.split('\n').filter((line) => !line.startsWith('npm ') && line !== '');

  it('user create prints the user as JSON on stdout, exit 0', async () => {
    const address = email('cli');
    const { code, stdout, stderr } = await cli('user', 'create', '--email', address, '--name', 'CLI user');
    expect({ code, stderr: stderr.split('\n').filter((l) => l.startsWith('error')) }).toEqual({ code: 0, stderr: [] });
    const user = JSON.parse(stdout);
    expect(user).toEqual({ object: 'user', id: expect.any(String), email: address, displayName: 'CLI user' });
    expect(stdout).toBe(`${JSON.stringify(user, null, 2)}\n`);
    expect(await db.prisma.user.findUnique({ where: { id: user.id } })).not.toBeNull();
  }, 60_000);

  it('a failing org create exits 1 with a one-line message on stderr and nothing on stdout', async () => {
    const missing = email('ghost');
    const { code, stdout, stderr } = await cli('org', 'create', '--title', 'Nobody owns this', '--owner', missing);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`error: No user with e-mail ${missing}\n`);
  }, 60_000);

  it('a usage error exits 2', async () => {
    const { code, stdout, stderr } = await cli('org', 'create', '--title', 'No owner');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(errorLines(stderr)).toEqual(["error: required option '--owner <email>' not specified (usage: npm run -s admin -- help)"]);
  }, 60_000);

  it('backup writes the database to a file while it is in use, and restore brings it into an empty database', async () => {
    const owner = await createUser(db.prisma, { email: email('saved') });
    const directory = mkdtempSync(path.join(os.tmpdir(), 'cli-backup-'));
    const target = await createSharedTestDatabase();
    try {
      const file = path.join(directory, 'instance.backup.gz');
      const backup = await cli('backup', file);
      expect(backup.code).toBe(0);
      expect(JSON.parse(backup.stdout)).toMatchObject({ object: 'backup', file, rows: expect.any(Number) });

      const env = { ...process.env, DATABASE_URL: target.url };
      const restore = await exec('npx', ['tsx', 'src/admin/cli.ts', 'restore', file], { cwd: root, env, timeout: 60_000 });
      expect(JSON.parse(restore.stdout)).toMatchObject({ object: 'restore', rows: JSON.parse(backup.stdout).rows });
      const restored = connectDatabase(target.url, 1);
      try {
        expect(await restored.prisma.user.findUnique({ where: { id: owner.id } })).toMatchObject({ email: owner.email });
      } finally {
        await restored.close();
      }
      expect(errorLines((await cli('backup', file)).stderr)).toEqual([`error: ${file} already exists; a backup never overwrites a file`]);
    } finally {
      await target.drop();
      rmSync(directory, { recursive: true, force: true });
    }
  }, 60_000);

  it('a mistyped command is a usage error that suggests the right one, on one line', async () => {
    const { code, stderr } = await cli('tokn', 'list');
    expect(code).toBe(2);
    expect(errorLines(stderr)).toEqual(["error: unknown command 'tokn' (Did you mean token?) (usage: npm run -s admin -- help)"]);
  }, 60_000);

  it('has a help per command, on stdout with exit 0', async () => {
    const { code, stdout } = await cli('token', 'create', '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run -s admin -- token create [options]');
    expect(stdout).toMatch(/--expires <when> +a duration \(90d, 12h, 30m\)/);
    expect((await cli('help', 'token')).stdout).toMatch(/list \[options\] +list API tokens/);
  }, 60_000);

  it('token create --expires, then token list shows the token without its secret, and user list and org list', async () => {
    const owner = await createUser(db.prisma, { email: email('lister') });
    const organization = await createOrganization(db.prisma, { title: 'Listed Inc', ownerEmail: owner.email });
    const created = JSON.parse((await cli('token', 'create', '--email', owner.email, '--label', 'ci', '--expires', '30d')).stdout);
    const expiresAt = new Date(created.expiresAt).getTime();
    expect(Math.abs(expiresAt - (Date.now() + 30 * 86_400_000))).toBeLessThan(120_000);

    const listed = await cli('token', 'list', '--email', owner.email);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        object: 'api-token',
        id: created.id,
        label: 'ci',
        email: owner.email,
        createdAt: expect.any(String),
        lastUsedAt: null,
        expiresAt: created.expiresAt,
        revokedAt: null,
        organizationId: null,
        organizations: [],
        spaces: [],
        readOnly: false,
      },
    ]);
    expect(listed.stdout).not.toContain(created.token);
    expect(listed.stdout).not.toContain(hashToken(created.token));

    const users = JSON.parse((await cli('user', 'list')).stdout);
    expect(users).toContainEqual({
      object: 'user',
      id: owner.id,
      email: owner.email,
      displayName: owner.displayName,
      createdAt: expect.any(String),
    });
    const organizations = JSON.parse((await cli('org', 'list')).stdout);
    expect(organizations).toContainEqual({
      object: 'organization',
      id: organization.id,
      title: 'Listed Inc',
      createdAt: expect.any(String),
      members: 1,
    });
  }, 60_000);
});
