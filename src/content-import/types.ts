// The GraphQL types of content imports: GitBook's source enum (all its values, though only some are supported) and
// what an import answers.
import { builder, restEnum } from '../kernel/builder.js';
import type { ContentImportOutcome } from './service.js';

export const ImportContentSourceEnum = restEnum(
  'ImportContentSource',
  {
    website: 'website',
    docx: 'docx',
    markdown: 'markdown',
    html: 'html',
    zip: 'zip',
    confluence: 'confluence',
    github_wiki: 'github-wiki',
    notion: 'notion',
    google_docs: 'google-docs',
  },
  'Where imported content comes from, as GitBook names it; website, html and markdown are supported.',
);

export const ContentImport = builder.objectRef<ContentImportOutcome>('ContentImport').implement({
  description: 'What an import wrote: one new revision of the change request, and how many pages it read.',
  fields: (t) => ({
    revision: t.exposeID('revision', { description: 'The new revision of the change request.' }),
    importedResources: t.exposeInt('importedResources', { description: 'Pages imported.' }),
    totalResources: t.exposeInt('totalResources', {
      description: 'Pages tried: those imported and those skipped (an HTTP error, not HTML, too large, too slow).',
    }),
  }),
});
