// Admin command line: `npm run -s admin -- <command> [options]` (or `npx tsx src/admin/cli.ts ...`).
// Prints the result as JSON on stdout (exit 0). Errors go to stderr as one line "error: ..." with exit code 1, or 2
// for usage errors. Works against DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (attaching to the
// running server's one when there is one).
import { parseArgs } from 'node:util';
import { loadConfig, loadEnvFile } from '../config.js';
import { connectDatabase } from '../db/client.js';
import { openDatabase } from '../db/open.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { addMember, createOrganization, createToken, createUser, revokeToken } from './commands.js';

class UsageError extends Error {}

type Values = Record<string, string | undefined>;

interface Command {
  synopsis: string;
  required: string[];
  optional: string[];
  run(prisma: PrismaClient, v: Values): Promise<unknown>;
}

const COMMANDS: Record<string, Command> = {
  'user create': {
    synopsis: 'user create --email E [--name N]      create a user',
    required: ['email'],
    optional: ['name'],
    run: (prisma, v) => createUser(prisma, { email: v.email!, name: v.name }),
  },
  'org create': {
    synopsis: 'org create --title T --owner E         create an organization, owned (admin) by user E',
    required: ['title', 'owner'],
    optional: [],
    run: (prisma, v) => createOrganization(prisma, { title: v.title!, ownerEmail: v.owner! }),
  },
  'member add': {
    synopsis:
      'member add --org O --email E --role R  add (or change the role of) a member; R: admin, create, review, edit, comment, read, guest',
    required: ['org', 'email', 'role'],
    optional: [],
    run: (prisma, v) => addMember(prisma, { organizationId: v.org!, email: v.email!, role: v.role! }),
  },
  'token create': {
    synopsis: 'token create --email E [--label L]     create an API token for user E (shown once)',
    required: ['email'],
    optional: ['label'],
    run: (prisma, v) => createToken(prisma, { email: v.email!, label: v.label }),
  },
  'token revoke': {
    synopsis: 'token revoke --id ID                   revoke an API token',
    required: ['id'],
    optional: [],
    run: (prisma, v) => revokeToken(prisma, { id: v.id! }),
  },
};

const OPTIONS = ['email', 'name', 'title', 'owner', 'org', 'role', 'label', 'id'] as const;

const USAGE = [
  'Usage: npm run -s admin -- <command> [options]',
  '',
  'Commands:',
  ...Object.values(COMMANDS).map((c) => `  ${c.synopsis}`),
  '  help                                   show this help',
  '',
  'The database is DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (default ./data).',
].join('\n');

function parse(argv: string[]): { command: Command | 'help'; values: Values } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { ...Object.fromEntries(OPTIONS.map((o) => [o, { type: 'string' as const }])), help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  if (values.help || positionals[0] === 'help') return { command: 'help', values: {} };
  if (positionals.length === 0) throw new UsageError('no command given');
  const name = positionals.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  if (positionals.length > 2) throw new UsageError(`unexpected argument "${positionals[2]}" after "${name}"`);
  const given = values as Values;
  for (const option of Object.keys(given)) {
    if (!command.required.includes(option) && !command.optional.includes(option)) {
      throw new UsageError(`option --${option} does not apply to "${name}"`);
    }
  }
  const missing = command.required.filter((o) => given[o] === undefined);
  if (missing.length) throw new UsageError(`"${name}" needs ${missing.map((o) => `--${o}`).join(', ')}`);
  return { command, values: given };
}

/** One line, never empty (connection errors can be AggregateErrors with an empty message). */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return describe(error.errors[0]);
  const e = error as { message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message.replace(/\s+/g, ' ').trim() : String(error);
  return message || (typeof e?.code === 'string' ? e.code : 'unknown error');
}

async function run(argv: string[]): Promise<{ stdout: string; code: number }> {
  const { command, values } = parse(argv);
  if (command === 'help') return { stdout: USAGE, code: 0 };
  // Nothing but the JSON result may reach stdout.
  loadEnvFile();
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  try {
    const db = connectDatabase(database.url, 2);
    try {
      const result = await command.run(db.prisma, values);
      return { stdout: JSON.stringify(result, null, 2), code: 0 };
    } finally {
      await db.close();
    }
  } finally {
    await database.stop();
  }
}

async function main(): Promise<number> {
  try {
    const { stdout, code } = await run(process.argv.slice(2));
    await new Promise<void>((resolve) => process.stdout.write(`${stdout}\n`, () => resolve()));
    return code;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${describe(error)} (usage: npm run -s admin -- help)\n`);
      return 2;
    }
    process.stderr.write(`error: ${describe(error)}\n`);
    return 1;
  }
}

process.exit(await main());
