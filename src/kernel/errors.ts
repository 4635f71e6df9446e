// The one error type of the API. Resolvers throw it; its `extensions.http` (status, and headers where HTTP asks for
// them) is what the REST layer answers with `{"error":{"code":<status>,"message":"..."}}`, and graphql-yoga with a
// GraphQL error.
import { GraphQLError } from 'graphql';

export class ApiError extends GraphQLError {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 410 | 412 | 415 | 429 | 500,
    message: string,
    headers?: Record<string, string>,
  ) {
    super(message, { extensions: { code: codeNames[status], http: { status, ...(headers && { headers }) } } });
  }
}

const codeNames = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  410: 'GONE',
  412: 'PRECONDITION_FAILED',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
} as const;

export const badRequest = (message: string) => new ApiError(400, message);
/** 401, with the challenge HTTP requires of it (RFC 9110 §11.6.1). */
export const unauthorized = (message = 'A valid API token is required (Authorization: Bearer <token>).') =>
  new ApiError(401, message, { 'WWW-Authenticate': 'Bearer' });
/** Unknown, or not visible to the caller: the two are never told apart. */
export const notFound = (kind: string) => new ApiError(404, `${kind} not found`);
export const conflict = (message: string) => new ApiError(409, message);

/** True for a unique-constraint violation reported by Prisma (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
