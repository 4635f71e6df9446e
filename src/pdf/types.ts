// The PDF export in GraphQL: `ChangeRequest.pdf` and `Space.pdf`, a signed, expiring download link of a PDF of the
// content's pages (all of them, a page with its subpages, or one page).
import { ChangeRequest } from '../change-requests/types.js';
import { builder } from '../kernel/builder.js';
import { Space } from '../spaces/types.js';
import { changeRequestPdf, MAX_PDF_PAGES, spacePdf } from './service.js';

const ChangeRequestPdf = builder.objectRef<{ url: string }>('ChangeRequestPdf').implement({
  description: 'A PDF of a change request’s content.',
  fields: (t) => ({
    url: t.exposeString('url', {
      description: 'A signed address of the PDF, served inline as application/pdf; it works for a day at least.',
    }),
  }),
});

const SpacePdf = builder.objectRef<{ url: string }>('SpacePdf').implement({
  description: 'A PDF of a space’s current content.',
  fields: (t) => ({
    url: t.exposeString('url', {
      description: 'A signed address of the PDF, served inline as application/pdf; it works for an hour (and at most 5 minutes more).',
    }),
  }),
});

const pdfArgs = builder.args((t) => ({
  only: t.boolean({ description: 'Only the page that `page` names, without its subpages.' }),
  page: t.string({ description: 'The id of a page of the content: the export starts there.' }),
}));

const exportDescription = (content: string) =>
  `A PDF of ${content}: every page in the order of the page tree, each from a new PDF page, or with \`page\` that page ` +
  `and its subpages, or with \`only\` that page alone. At most ${MAX_PDF_PAGES} pages.`;

// Whoever reads the change request may export its content: `view` on the space (its resolver, through `changeRequests`).
builder.objectField(ChangeRequest, 'pdf', (t) =>
  t.field({
    type: ChangeRequestPdf,
    description: exportDescription('the change request’s current content'),
    args: pdfArgs,
    resolve: (changeRequest, args, ctx) => changeRequestPdf(ctx, changeRequest, args),
  }),
);

// Whoever reads the space may export its content: `view` (its resolver).
builder.objectField(Space, 'pdf', (t) =>
  t.field({
    type: SpacePdf,
    description: exportDescription('the space’s current content'),
    args: pdfArgs,
    resolve: (space, args, ctx) => spacePdf(ctx, space, args),
  }),
);
