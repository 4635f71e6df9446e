// Admin command line: `npm run -s admin -- <command> [options]`; `help` or `<command> --help` says the rest.
// Prints the result as JSON on stdout (exit 0). Errors go to stderr as one line "error: ..." with exit code 1, or 2
// for usage errors. Works against DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (attaching to the
// running server's one when there is one); backup and restore also against the file store the configuration names
// (FILES_STORE, FILES_DIR, S3_*).
import { Command, CommanderError } from 'commander';
import { loadConfig, loadEnvFile } from '../config.js';
import { connectDatabase } from '../db/client.js';
import { openDatabase } from '../db/open.js';
import { createFileStore, type FileStore } from '../files/store.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { createLogger } from '../logger.js';
import { backupDatabase, restoreDatabase } from './backup.js';
import {
  addMember,
  createOrganization,
  createToken,
  createUser,
  listOrganizations,
  listTokens,
  listUsers,
  revokeToken,
} from './commands.js';

type Options = Record<string, string | undefined>;

/**
 * What a command does once its options are parsed: with a Prisma client on the migrated database, or (backup,
 * restore) with the database's URL, migrated or not as the command itself decides, and the file store.
 */
type Action =
  | { prisma: (prisma: PrismaClient, options: Options) => Promise<unknown> }
  | { url: (databaseUrl: string, files: FileStore, options: Options) => Promise<unknown> };

const ROLES = 'admin, create, review, edit, comment, read, guest';

function program(run: (action: Action, options: Options) => void): Command {
  const cli = new Command('npm run -s admin --')
    .description('Administration of a docs-platform-api instance. Prints JSON on stdout.')
    .addHelpText(
      'after',
      '\nThe database is DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (default ./data); a .env file is read.',
    )
    .helpCommand('help [command]', 'show the help of a command')
    .showSuggestionAfterError()
    // Subcommands inherit these: errors are thrown, and reported by main() as one line.
    .exitOverride()
    .configureOutput({ outputError: () => {} });
  const command = (parent: Command, name: string, description: string) => parent.command(name).description(description);
  const action =
    (prisma: (prisma: PrismaClient, options: Options) => Promise<unknown>) =>
    (options: Options): void =>
      run({ prisma }, options);

  const user = command(cli, 'user', 'users: create, list');
  command(user, 'create', 'create a user')
    .requiredOption('--email <email>', 'their e-mail address (unique)')
    .option('--name <name>', 'display name (default: the part of the e-mail before @)')
    .action(action((prisma, o) => createUser(prisma, { email: o.email!, name: o.name })));
  command(user, 'list', 'list every user').action(action((prisma) => listUsers(prisma)));

  const org = command(cli, 'org', 'organizations: create, list');
  command(org, 'create', 'create an organization, owned (admin) by a user')
    .requiredOption('--title <title>', 'its title')
    .requiredOption('--owner <email>', 'e-mail of the user who becomes its admin')
    .action(action((prisma, o) => createOrganization(prisma, { title: o.title!, ownerEmail: o.owner! })));
  command(org, 'list', 'list every organization with its member count').action(action((prisma) => listOrganizations(prisma)));

  const member = command(cli, 'member', 'members of organizations: add');
  command(member, 'add', 'add a member to an organization, or change their role')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--email <email>', 'e-mail of the user')
    .requiredOption('--role <role>', `one of ${ROLES}`)
    .action(action((prisma, o) => addMember(prisma, { organizationId: o.org!, email: o.email!, role: o.role! })));

  const token = command(cli, 'token', 'API tokens: create, list, revoke');
  command(token, 'create', 'create an API token for a user (its secret is shown once)')
    .requiredOption('--email <email>', 'e-mail of the user the token acts as')
    .option('--label <label>', 'what the token is for')
    .option('--expires <when>', 'a duration (90d, 12h, 30m) or an ISO 8601 date-time; default: never')
    .action(action((prisma, o) => createToken(prisma, { email: o.email!, label: o.label, expires: o.expires })));
  command(token, 'list', 'list API tokens (ids, labels, dates, last use; never secrets), newest first')
    .option('--email <email>', "only this user's tokens")
    .action(action((prisma, o) => listTokens(prisma, { email: o.email })));
  command(token, 'revoke', 'revoke an API token')
    .requiredOption('--id <id>', 'the token id (token list shows them)')
    .action(action((prisma, o) => revokeToken(prisma, { id: o.id! })));
  command(cli, 'backup', 'write a consistent backup of the database and of the file bytes it names to FILE (gzip), while the service runs')
    .argument('<file>', 'where to write it; an existing file is never overwritten')
    .option('--allow-missing-files', 'back up even when the file store lacks bytes the database names (the backup lists them)')
    .action((file: string, o: { allowMissingFiles?: true }) =>
      run({ url: (url, files) => backupDatabase(url, files, file, { allowMissingFiles: o.allowMissingFiles === true }) }, {}),
    );
  command(
    cli,
    'restore',
    'restore a backup into an empty database (a new DATA_DIR, or an empty DATABASE_URL database) and its files into the file store (FILES_STORE)',
  )
    .argument('<file>', 'a file written by backup, by this version of the service or an older one')
    .action((file: string) => run({ url: (url, files) => restoreDatabase(url, files, file) }, {}));
  return cli;
}

/** One line, never empty (connection errors can be AggregateErrors with an empty message). */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return describe(error.errors[0]);
  const e = error as { message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message.replace(/\s+/g, ' ').trim() : String(error);
  return message || (typeof e?.code === 'string' ? e.code : 'unknown error');
}

async function execute(action: Action, options: Options): Promise<unknown> {
  // Nothing but the JSON result may reach stdout.
  loadEnvFile();
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  // Warnings (the embedded cluster recovering after a crash) go to stderr.
  const logger = createLogger('warn', process.stderr.isTTY === true, 2);
  const database = await openDatabase(config, { migrate: 'prisma' in action, logger });
  try {
    if ('url' in action) return await action.url(database.url, createFileStore(config), options);
    const db = connectDatabase(database.url, 2);
    try {
      return await action.prisma(db.prisma, options);
    } finally {
      await db.close();
    }
  } finally {
    await database.stop();
  }
}

const write = (stream: NodeJS.WriteStream, text: string) => new Promise<void>((resolve) => stream.write(text, () => resolve()));

async function main(argv: string[]): Promise<number> {
  let chosen: { action: Action; options: Options } | undefined;
  const cli = program((action, options) => {
    chosen = { action, options };
  });
  try {
    await cli.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return 0; // --help, help
    if (error.code === 'commander.help') return 2; // a command group without its subcommand: its help is on stderr
    const message = describe(error).replace(/^error: /, '');
    await write(process.stderr, `error: ${message} (usage: npm run -s admin -- help)\n`);
    return 2;
  }
  if (!chosen) {
    await write(process.stderr, `${cli.helpInformation()}\n`);
    return 2;
  }
  try {
    const result = await execute(chosen.action, chosen.options);
    await write(process.stdout, `${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    await write(process.stderr, `error: ${describe(error)}\n`);
    return 1;
  }
}

process.exit(await main(process.argv.slice(2)));
