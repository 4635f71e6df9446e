// Asking for an import from or an export to a Git repository: the inputs (GitBook's ImportGitRepository and
// ExportToGitRepository, with their validation) and the mutations, which answer the queued operation.
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { insidePath } from '../revisions/addresses.js';
import { requestOperation } from './service.js';
import { GitSyncOperation } from './types.js';

/** A branch as Git names it (git check-ref-format), under refs/heads/. */
const refRule = z
  .string()
  .max(255)
  .regex(/^refs\/heads\/[^\p{Cc}\s~^:?*[\\]+$/u, 'must be a branch, "refs/heads/<name>"')
  .refine((ref) => !/(^|\/)\.|\.\.|\/\/|\/$|\.lock(\/|$)|@\{|\.$/.test(ref), 'must be a branch, "refs/heads/<name>", with a valid name');

const urlRule = z
  .string()
  .max(2048)
  .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), 'must be an http or https URL');

const GitInfoInput = builder.inputType('GitInfoInput', {
  description: 'Metadata on the Git provider (deprecated by GitBook).',
  fields: (t) => ({
    provider: t.string({ description: 'github or gitlab.', validate: z.enum(['github', 'gitlab']) }),
    url: t.string({ description: 'The repository’s tree URL (not kept).', validate: z.string().max(2048) }),
  }),
});

const commonFields = (t: PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>) => ({
  url: t.string({
    required: true,
    description: 'The repository’s http(s) URL, at most 2048 characters; basic-auth credentials in it are kept sealed and never shown.',
    validate: urlRule,
  }),
  ref: t.string({ required: true, description: 'The branch, `refs/heads/<name>`.', validate: refRule }),
  repoCacheID: t.string({ description: 'Accepted for GitBook’s clients; not used.', validate: z.string().max(2048) }),
  repoTreeURL: t.string({ description: 'Accepted for GitBook’s clients; not used.', validate: z.string().max(2048) }),
  repoCommitURL: t.string({ description: 'Accepted for GitBook’s clients; not used.', validate: z.string().max(2048) }),
  repoProjectDirectory: t.string({
    description: 'The folder of the project in the repository (where `.gitbook.yaml` is), default its top.',
    validate: z
      .string()
      .max(512)
      .refine((value) => insidePath(value) !== null, 'must be a path inside the repository'),
  }),
  timestamp: t.field({
    type: 'DateTime',
    description: 'When the event that asked for it happened: an operation older than the last one applied is skipped.',
  }),
  force: t.boolean({ description: 'Export: push even when the branch is not a fast-forward of the export.' }),
  standalone: t.boolean({
    description:
      'Import: write a revision that does not become the space’s content. Export: a snapshot that does not become the ' +
      'space’s sync point. Either way the space’s Git sync configuration is left as it is.',
  }),
  gitInfo: t.field({ type: GitInfoInput }),
});

const ImportGitRepositoryInput = builder.inputType('ImportGitRepositoryInput', {
  fields: (t) => commonFields(t),
});

const ExportToGitRepositoryInput = builder.inputType('ExportToGitRepositoryInput', {
  fields: (t) => ({
    ...commonFields(t),
    commitMessage: t.string({
      required: true,
      description: 'The message of the commit, 1 to 10000 characters.',
      validate: z.string().trim().min(1).max(10_000),
    }),
  }),
});

/** The request of an input: the project directory normalized, the provider one of those its validation allows. */
const requestOf = <T extends { repoProjectDirectory?: string | null; gitInfo?: { provider?: string | null } | null }>(input: T) => ({
  ...input,
  repoProjectDirectory: input.repoProjectDirectory == null ? null : insidePath(input.repoProjectDirectory),
  gitInfo: { provider: input.gitInfo?.provider as 'github' | 'gitlab' | null | undefined },
});

builder.mutationFields((t) => ({
  importGitRepository: t.field({
    type: GitSyncOperation,
    description:
      'Imports the branch into the space in the background: the content becomes what the repository holds (GitBook’s ' +
      'layout: .gitbook.yaml, SUMMARY.md, markdown pages with front matter, files), in one new revision. Needs triggerGitSync.',
    args: { spaceId: t.arg.id({ required: true }), input: t.arg({ type: ImportGitRepositoryInput, required: true }) },
    resolve: (_root, args, ctx) => requestOperation(ctx, args.spaceId, 'import', requestOf(args.input)),
  }),
  exportToGitRepository: t.field({
    type: GitSyncOperation,
    description:
      'Exports the space’s current content to the branch in the background, in GitBook’s layout, as one commit with the ' +
      'message given. Needs triggerGitSync.',
    args: { spaceId: t.arg.id({ required: true }), input: t.arg({ type: ExportToGitRepositoryInput, required: true }) },
    resolve: (_root, args, ctx) => requestOperation(ctx, args.spaceId, 'export', requestOf(args.input)),
  }),
}));
