// Structured logs (pino), one JSON line per event; every request line carries its request id.
import pino from 'pino';

export type Logger = pino.Logger;

export const createLogger = (level: string) => pino({ level, base: { service: 'docs-platform-api' } });
