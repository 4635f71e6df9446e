// Entity tags (RFC 9110 §8.8.3, §13.1): a single object whose GraphQL type has an `etag` field answers it as the ETag
// header, not in its body; a GET whose If-None-Match names it answers 304 without a body; If-Match is handed to the
// operation's context (`ifMatch`), for the writes to check where they write. What a tag versions is the service's
// business; here it is an opaque string, quoted on the wire.
import {
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isAbstractType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { RestError } from './errors.js';
import { fieldNode, selectionSet } from './fragments.js';

/** The GraphQL field that holds an object's tag. */
const ETAG_FIELD = 'etag';
/** Response key under which a route's body carries its tag, for the engine only (never written). */
export const ETAG_KEY = '__etag';

const tagged = (type: GraphQLObjectType) => ETAG_FIELD in type.getFields();

/** The body's set with `__etag: etag` added for each type it may be that has a tag; undefined when none has. */
function withTag(schema: GraphQLSchema, type: GraphQLCompositeType, set: SelectionSetNode): SelectionSetNode | undefined {
  if (isObjectType(type)) return tagged(type) ? selectionSet([...set.selections, fieldNode(ETAG_FIELD, undefined, ETAG_KEY)]) : undefined;
  const possible = isAbstractType(type) ? schema.getPossibleTypes(type).filter(tagged) : [];
  if (!possible.length) return undefined;
  return selectionSet([
    ...set.selections,
    ...possible.map((object) => ({
      kind: Kind.INLINE_FRAGMENT as const,
      typeCondition: { kind: Kind.NAMED_TYPE as const, name: { kind: Kind.NAME as const, value: object.name } },
      selectionSet: selectionSet([fieldNode(ETAG_FIELD, undefined, ETAG_KEY)]),
    })),
  ]);
}

/**
 * The operation with the tag selected beside the body at `bodyPath`, when the body is one object (not a list) whose
 * type has a tag; undefined otherwise.
 */
export function withETag(schema: GraphQLSchema, operation: OperationDefinitionNode, bodyPath: readonly string[]) {
  const root = operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  const descend = (type: GraphQLCompositeType, set: SelectionSetNode, keys: readonly string[]): SelectionSetNode | undefined => {
    if (!keys.length) return withTag(schema, type, set);
    if (!isObjectType(type)) return undefined;
    const index = set.selections.findIndex((s) => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === keys[0]);
    const node = set.selections[index] as FieldNode | undefined;
    const field = node && type.getFields()[node.name.value];
    if (!node?.selectionSet || !field || isListType(getNullableType(field.type))) return undefined;
    const sub = descend(getNamedType(field.type) as GraphQLCompositeType, node.selectionSet, keys.slice(1));
    if (!sub) return undefined;
    const selections = [...set.selections];
    selections[index] = { ...node, selectionSet: sub };
    return selectionSet(selections);
  };
  const set = descend(root, operation.selectionSet, bodyPath);
  return set && { ...operation, selectionSet: set };
}

/** The opaque tags of an `If-Match` header: undefined without one or for `*`; weak tags, which never match, left out. */
export function ifMatchOf(header: string): readonly string[] | undefined {
  if (!header.trim() || header.trim() === '*') return undefined;
  return entityTags(header, 'If-Match')
    .filter((tag) => !tag.weak)
    .map((tag) => tag.opaque);
}

/** Whether an `If-None-Match` header names this tag (weak comparison, `*` for any). */
export function noneMatchNames(header: string, tag: string): boolean {
  if (!header.trim()) return false;
  if (header.trim() === '*') return true;
  return entityTags(header, 'If-None-Match').some((candidate) => candidate.opaque === tag);
}

/** A comma-separated list of entity tags (`"x"`, `W/"x"`); 400 for anything else. */
function entityTags(header: string, name: string): { weak: boolean; opaque: string }[] {
  const tags: { weak: boolean; opaque: string }[] = [];
  const item = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/y;
  while (item.lastIndex < header.length) {
    const match = item.exec(header);
    if (!match) throw new RestError(400, `Invalid ${name}: a list of quoted entity tags ("tag") is expected, or *.`);
    tags.push({ weak: Boolean(match[1]), opaque: match[2] });
  }
  return tags;
}
