// Domain logic of the admin commands (src/admin/cli.ts), usable without the CLI (tests, first start of the server).
// Each command returns a plain JSON-able object and throws AdminError on bad input.
import { z } from 'zod';
import { eventHooks } from '../composition.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { MemberRole } from '../generated/prisma/enums.js';
import { systemClock } from '../kernel/context.js';
import { isUniqueViolation } from '../kernel/errors.js';
import { recorderFor, systemActor } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { createOrganization as insertOrganization, setMember } from '../organizations/service.js';
import { insertToken, revokeToken as revokeApiToken } from '../tokens/service.js';

/** An error of the caller's making (bad input, unknown or conflicting record), with a message meant for them. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

type Db = PrismaClient | Prisma.TransactionClient;

/** The recorder of a command's changes: the system, from a script. */
const scriptRecorder = () => recorderFor({ clock: systemClock, eventHooks }, systemActor('script'));

const MEMBER_ROLES = Object.values(MemberRole);

/** Key of the advisory lock that serialises bootstraps (any constant distinct from Prisma's migrate lock). */
const BOOTSTRAP_LOCK = 1685021555; // 'docs' as a 32-bit integer
const DEFAULT_BOOTSTRAP_EMAIL = 'admin@example.com'; // z.email() rejects 'admin@localhost' (no TLD)
const DEFAULT_BOOTSTRAP_TITLE = 'My organization';

const EmailSchema = z.email();

function normalizeEmail(email: unknown): string {
  const value = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!value) throw new AdminError('An e-mail address is required');
  if (!EmailSchema.safeParse(value).success) throw new AdminError(`"${value}" is not a valid e-mail address`);
  return value;
}

function normalizeTitle(title: unknown): string {
  const value = typeof title === 'string' ? title.trim() : '';
  if (value.length < 2 || value.length > 255) {
    throw new AdminError(`The organization title must be 2 to 255 characters long (got ${value.length})`);
  }
  return value;
}

function optionalText(value: unknown, what: string, max = 255): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  if (!text) return undefined;
  if (text.length > max) throw new AdminError(`The ${what} must be at most ${max} characters long`);
  return text;
}

/** A role name, or "guest" for a member without role (null). */
function parseRole(role: unknown): MemberRole | null {
  const value = typeof role === 'string' ? role.trim().toLowerCase() : '';
  if (value === 'guest') return null;
  if ((MEMBER_ROLES as readonly string[]).includes(value)) return value as MemberRole;
  throw new AdminError(`Unknown role "${String(role ?? '')}"; expected one of ${MEMBER_ROLES.join(', ')}, guest`);
}

async function userByEmail(db: Db, email: unknown): Promise<{ id: string; email: string; displayName: string }> {
  const normalized = normalizeEmail(email);
  const user = await db.user.findUnique({ where: { email: normalized }, select: { id: true, email: true, displayName: true } });
  if (!user) throw new AdminError(`No user with e-mail ${normalized}`);
  return user;
}

async function insertUser(db: Db, input: { email: string; name?: string }) {
  const email = normalizeEmail(input.email);
  const displayName = optionalText(input.name, 'name') ?? email.slice(0, email.indexOf('@'));
  const duplicate = () => new AdminError(`A user with e-mail ${email} already exists`);
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw duplicate();
  try {
    return await db.user.create({ data: { id: newId(), email, displayName }, select: { id: true, email: true, displayName: true } });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}

const DURATION = /^(\d{1,5})([dhm])$/;
const DURATION_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/** An expiry given as a duration from now (`90d`, `12h`, `30m`) or an ISO 8601 date-time, which must be in the future. */
export function parseExpiry(text: string, now = new Date()): Date {
  const value = text.trim();
  const duration = DURATION.exec(value);
  const expiresAt = duration
    ? new Date(now.getTime() + Number(duration[1]) * DURATION_MS[duration[2] as keyof typeof DURATION_MS])
    : z.iso.datetime({ offset: true }).safeParse(value).success
      ? new Date(value)
      : undefined;
  if (!expiresAt) throw new AdminError(`Invalid expiry "${value}": give a duration such as 90d, 12h or 30m, or an ISO 8601 date-time`);
  if (expiresAt <= now) throw new AdminError(`The expiry ${expiresAt.toISOString()} is not in the future`);
  return expiresAt;
}

export async function createUser(prisma: PrismaClient, input: { email: string; name?: string }) {
  const user = await insertUser(prisma, input);
  return { object: 'user' as const, id: user.id, email: user.email, displayName: user.displayName };
}

export async function createOrganization(prisma: PrismaClient, input: { title: string; ownerEmail: string }) {
  const title = normalizeTitle(input.title);
  return prisma.$transaction(async (tx) => {
    const owner = await userByEmail(tx, input.ownerEmail);
    const organization = await insertOrganization(tx, scriptRecorder(), { title, ownerId: owner.id });
    return { object: 'organization' as const, id: organization.id, title: organization.title, owner: owner.id };
  });
}

export async function addMember(prisma: PrismaClient, input: { organizationId: string; email: string; role: string }) {
  const role = parseRole(input.role);
  const organizationId = String(input.organizationId ?? '').trim();
  if (!organizationId) throw new AdminError('An organization id is required');
  return prisma.$transaction(async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
    if (!organization) throw new AdminError(`No organization with id ${organizationId}`);
    const user = await userByEmail(tx, input.email);
    const member = await setMember(tx, scriptRecorder(), { organizationId, user, role });
    return { object: 'member' as const, organization: organizationId, user: user.id, role: member.role, updated: member.updated };
  });
}

export async function createToken(prisma: PrismaClient, input: { email: string; label?: string; expires?: string }) {
  const label = optionalText(input.label, 'token label');
  const expiresAt = input.expires === undefined ? undefined : parseExpiry(input.expires);
  const user = await userByEmail(prisma, input.email);
  const { id, secret } = await prisma.$transaction((tx) =>
    insertToken(tx, scriptRecorder(), { userId: user.id, label: label ?? null, expiresAt: expiresAt ?? null }, new Date()),
  );
  return { object: 'api-token' as const, id, userId: user.id, token: secret, expiresAt: expiresAt?.toISOString() ?? null };
}

/** Every API token, or one user's, newest first: what it is and how it is used, never its secret. */
export async function listTokens(prisma: PrismaClient, input: { email?: string } = {}) {
  const user = input.email === undefined ? undefined : await userByEmail(prisma, input.email);
  const tokens = await prisma.apiToken.findMany({
    where: user && { userId: user.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    select: {
      id: true,
      label: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
      // Set for a token that acts in one organization only (an SSO session).
      organizationId: true,
      organizations: true,
      spaces: true,
      readOnly: true,
      user: { select: { email: true } },
    },
  });
  return tokens.map(({ user: owner, ...token }) => ({ object: 'api-token' as const, ...token, email: owner.email }));
}

export async function listUsers(prisma: PrismaClient) {
  const users = await prisma.user.findMany({
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, email: true, displayName: true, createdAt: true },
  });
  return users.map((user) => ({ object: 'user' as const, ...user }));
}

export async function listOrganizations(prisma: PrismaClient) {
  const organizations = await prisma.organization.findMany({
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, title: true, createdAt: true, _count: { select: { members: true } } },
  });
  return organizations.map(({ _count, ...organization }) => ({
    object: 'organization' as const,
    ...organization,
    members: _count.members,
  }));
}

export async function revokeToken(prisma: PrismaClient, input: { id: string }) {
  const id = String(input.id ?? '').trim();
  if (!id) throw new AdminError('An API token id is required');
  const revokedAt = new Date();
  await prisma.$transaction(async (tx) => {
    if (await revokeApiToken(tx, scriptRecorder(), id, revokedAt)) return;
    const token = await tx.apiToken.findUnique({ where: { id }, select: { revokedAt: true } });
    if (!token) throw new AdminError(`No API token with id ${id}`);
    throw new AdminError(`API token ${id} was already revoked at ${token.revokedAt?.toISOString()}`);
  });
  return { object: 'api-token' as const, id, revokedAt: revokedAt.toISOString() };
}

/**
 * First-run setup: on a database without users and organizations, creates a user, an organization with that user
 * as admin, and an API token for them. Returns null (and changes nothing) when any user or organization exists.
 * Concurrent bootstraps (two processes starting at once) are serialised by a transaction-scoped advisory lock.
 */
export async function bootstrap(prisma: PrismaClient, input: { email?: string; title?: string } = {}) {
  const email = normalizeEmail(input.email ?? DEFAULT_BOOTSTRAP_EMAIL);
  const title = normalizeTitle(input.title ?? DEFAULT_BOOTSTRAP_TITLE);
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK}::bigint)`;
      const existing = (await tx.user.findFirst({ select: { id: true } })) ?? (await tx.organization.findFirst({ select: { id: true } }));
      if (existing) return null;
      const user = await insertUser(tx, { email });
      const organization = await insertOrganization(tx, scriptRecorder(), { title, ownerId: user.id });
      const bootstrapToken = { userId: user.id, label: 'bootstrap', expiresAt: null };
      const { id: tokenId, secret: token } = await insertToken(tx, scriptRecorder(), bootstrapToken, new Date());
      return { organizationId: organization.id, userId: user.id, email: user.email, tokenId, token };
    },
    // The lock may be held by another process for the length of its own bootstrap.
    { maxWait: 10_000, timeout: 30_000 },
  );
}
