// The PDF export in GraphQL: `ChangeRequest.pdf`, a signed, expiring download link of a PDF of the change request's
// pages (all of them, a page with its subpages, or one page).
import { ChangeRequest } from '../change-requests/types.js';
import { builder } from '../kernel/builder.js';
import { changeRequestPdf, MAX_PDF_PAGES } from './service.js';

const ChangeRequestPdf = builder.objectRef<{ url: string }>('ChangeRequestPdf').implement({
  description: 'A PDF of a change request’s content.',
  fields: (t) => ({
    url: t.exposeString('url', {
      description: 'A signed address of the PDF, served inline as application/pdf; it works for a day at least.',
    }),
  }),
});

// Whoever reads the change request may export its content: `view` on the space (its resolver, through `changeRequests`).
builder.objectField(ChangeRequest, 'pdf', (t) =>
  t.field({
    type: ChangeRequestPdf,
    description:
      `A PDF of the change request’s current content: every page in the order of the page tree, each from a new PDF ` +
      `page, or with \`page\` that page and its subpages, or with \`only\` that page alone. At most ${MAX_PDF_PAGES} pages.`,
    args: {
      only: t.arg.boolean({ description: 'Only the page that `page` names, without its subpages.' }),
      page: t.arg.string({ description: 'The id of a page of the change request’s content: the export starts there.' }),
    },
    resolve: (changeRequest, args, ctx) => changeRequestPdf(ctx, changeRequest, args),
  }),
);
