// The GraphQL input of a move, shared by collections and spaces: it declares the validation of tree.ts's MoveContent,
// which the services take (the resolvers hand them what it parses, so the typecheck holds the two together).
import { z } from 'zod';
import { builder } from '../kernel/builder.js';
import { rules } from '../kernel/validation.js';

const ContentPositionRef = builder.inputType('ContentPositionRef', {
  description: 'A sibling: `{type: "space", space}` or `{type: "collection", collection}`.',
  fields: (t) => ({
    type: t.string({ required: true, description: 'space or collection' }),
    space: t.id({ validate: rules.id }),
    collection: t.id({ validate: rules.id }),
  }),
  validate: z.union([
    z.object({ type: z.literal('space'), space: rules.id }),
    z.object({ type: z.literal('collection'), collection: rules.id }),
  ]),
});

const ContentPosition = builder.inputType('ContentPosition', {
  fields: (t) => ({ before: t.field({ type: ContentPositionRef }), after: t.field({ type: ContentPositionRef }) }),
});

/** Body of POST .../move, shared by collections and spaces. */
export const MoveContentInput = builder.inputType('MoveContentInput', {
  fields: (t) => ({
    parent: t.id({ description: 'Target collection; null moves to the top level; absent keeps the current parent.', validate: rules.id }),
    position: t.field({ type: ContentPosition }),
  }),
});
