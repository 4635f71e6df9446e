// What the admin commands' tests share.
import { expect } from 'vitest';
import { AdminError } from '../../src/admin/commands.js';

/** The AdminError `promise` rejects with; fails the test if it resolves or rejects with anything else. */
export async function adminError(promise: Promise<unknown>): Promise<AdminError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AdminError);
  return error as AdminError;
}
