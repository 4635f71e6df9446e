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

/** What an error asks of the HTTP response: `extensions.http` (status, headers), as graphql-yoga reads it. */
function httpOf(error: unknown): { status?: unknown; headers?: Record<string, string> } | undefined {
  const graphqlError = error as Partial<GraphQLError> | null;
  const http = graphqlError?.extensions?.http as { status?: unknown; headers?: Record<string, string> } | undefined;
  if (http) return http;
  return graphqlError?.originalError ? httpOf(graphqlError.originalError) : undefined;
}

/** The headers an error asks for. */
export const headersOf = (error: unknown): Record<string, string> => httpOf(error)?.headers ?? {};

/** The HTTP status an error asks for, or undefined for a bug. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof RestError) return error.status;
  const status = httpOf(error)?.status;
  return typeof status === 'number' ? status : undefined;
}
