// The instance secret: SECRET_KEY when set, otherwise a random key kept in DATA_DIR/secret.key (mode 0600).
// Purpose-specific keys are derived from it, so that rotating one use never weakens another.
import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function loadInstanceSecret(dataDir: string, secretKey?: string): Buffer {
  if (secretKey) return Buffer.from(secretKey, 'utf8');
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process (the admin CLI beside the server) created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

export function deriveKey(secret: Buffer, purpose: 'page-cursor' | 'encryption' | 'idempotency' | 'file-download'): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), purpose, 32));
}
