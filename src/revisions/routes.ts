// REST endpoints of a space's current content, of any revision of the space and of its documents, and the REST shapes
// of a revision, its pages and its files.
import { type RestModule, route } from '../../rest/route.js';
import { PAGE_TREE_LEVELS } from './read.js';

const PAGE_FIELDS = `id title emoji icon createdAt updatedAt kind type urls slug path description documentId git layout cover
  hidden noIndex noRobotsIndex tags target href computed`;

/** A page with its subpages `levels` deep: a fragment cannot spread itself, so each level is written out. */
const pageWithSubpages = (levels: number): string =>
  levels === 0 ? PAGE_FIELDS : `${PAGE_FIELDS} pages { ${pageWithSubpages(levels - 1)} }`;

const content = 'space(id: $spaceId).content';
const revisions = '/v1/spaces/:spaceId/revisions/:revisionId';
const revision = 'space(id: $spaceId).revision(id: $revisionId)';

export const revisionRest: RestModule = {
  fragments: {
    // mergedFrom (a merge revision's change request) is hung on Revision by src/change-requests.
    Revision: 'object id parents type createdAt pages files: allFiles reusableContents tags git urls mergedFrom',
    // Only the page asked for carries a body; its subpages, and the pages of a tree, never do.
    RevisionPage: `${pageWithSubpages(PAGE_TREE_LEVELS)} markdown document`,
    RevisionFile: 'id name contentType downloadURL size dimensions git',
    RevisionPageMetaLinks: 'canonical alternates',
  },
  routes: [
    route('GET /v1/spaces/:spaceId/content', 'getCurrentRevision', content),
    // The page tree alone, `{pages}`, as GitBook answers it.
    route('GET /v1/spaces/:spaceId/content/pages', 'listPages', content, { pick: ['pages'] }),
    route('GET /v1/spaces/:spaceId/content/files', 'listFiles', `${content}.files`),
    route('GET /v1/spaces/:spaceId/content/files/:fileId', 'getFileById', `${content}.file(id: $fileId)`),
    route('GET /v1/spaces/:spaceId/content/page/:pageId', 'getPageById', `${content}.page(id: $pageId)`),
    route('GET /v1/spaces/:spaceId/content/path/:pagePath*', 'getPageByPath', `${content}.pageByPath(path: $pagePath)`),
    route('GET /v1/spaces/:spaceId/content/page/:pageId/meta-links', 'listSpacePageMetaLinks', `${content}.page(id: $pageId).metaLinks`),
    // The same reads of any revision of the space (Revision.changes is hung on it by src/change-requests).
    route(`GET ${revisions}`, 'getRevisionById', revision),
    route(`GET ${revisions}/pages`, 'listPagesInRevisionById', revision, { pick: ['pages'] }),
    route(`GET ${revisions}/files`, 'listFilesInRevisionById', `${revision}.files`),
    route(`GET ${revisions}/files/:fileId`, 'getFileInRevisionById', `${revision}.file(id: $fileId)`),
    route(`GET ${revisions}/page/:pageId`, 'getPageInRevisionById', `${revision}.page(id: $pageId)`),
    route(`GET ${revisions}/page/:pageId/document`, 'getPageDocumentInRevisionById', `${revision}.pageDocument(id: $pageId)`),
    route(`GET ${revisions}/page/:pageId/meta-links`, 'listRevisionPageMetaLinks', `${revision}.page(id: $pageId).metaLinks`),
    route(`GET ${revisions}/path/:pagePath*`, 'getPageInRevisionByPath', `${revision}.pageByPath(path: $pagePath)`),
    route(`GET ${revisions}/changes`, 'getRevisionSemanticChanges', `${revision}.changes`),
    route('GET /v1/spaces/:spaceId/documents/:documentId', 'getDocumentById', 'space(id: $spaceId).document(id: $documentId)'),
  ],
};
