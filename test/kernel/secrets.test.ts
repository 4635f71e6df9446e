// The instance secret: SECRET_KEY when set; otherwise generated once into DATA_DIR/secret.key, which only the
// service's user reads, whatever the umask, and which every later process (the admin CLI beside the server) reuses.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadInstanceSecret } from '../../src/kernel/secrets.js';

const parent = mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const modeOf = (file: string) => statSync(file).mode & 0o777;

it('generates the secret into a private file in a private directory, once', () => {
  const dataDir = path.join(parent, 'data');
  const umask = process.umask(0);
  let secret: Buffer;
  try {
    secret = loadInstanceSecret(dataDir);
  } finally {
    process.umask(umask);
  }
  expect(secret).toHaveLength(32);
  expect(modeOf(dataDir)).toBe(0o700);
  expect(modeOf(path.join(dataDir, 'secret.key'))).toBe(0o600);
  expect(loadInstanceSecret(dataDir).equals(secret)).toBe(true);
  expect(loadInstanceSecret(dataDir, 'a'.repeat(32)).toString()).toBe('a'.repeat(32));
});
