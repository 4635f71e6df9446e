// Errors of the REST engine itself (routing, bodies, variables). Any error thrown while serving a route that carries
// an HTTP `status` (RestError here, the API's own errors through `extensions.http.status`) becomes the error body
// `{"error":{"code":<status>,"message":"..."}}`; anything else is a 500.
import type { GraphQLError } from 'graphql';

export class RestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The headers an error asks for (`extensions.http.headers`, as graphql-yoga reads them). */
export function headersOf(error: unknown): Record<string, string> {
  const graphqlError = error as Partial<GraphQLError> | null;
  const headers = (graphqlError?.extensions?.http as { headers?: Record<string, string> } | undefined)?.headers;
  if (headers) return headers;
  return graphqlError?.originalError ? headersOf(graphqlError.originalError) : {};
}

/** The HTTP status an error asks for, or undefined for a bug. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof RestError) return error.status;
  const graphqlError = error as Partial<GraphQLError> | null;
  const status = (graphqlError?.extensions?.http as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number') return status;
  return graphqlError?.originalError ? statusOf(graphqlError.originalError) : undefined;
}
