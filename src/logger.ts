// Structured logs (pino): one JSON line per event, every request line with its request id and its actor (user and
// token ids). On a terminal, the same lines are printed readably (pino-pretty) instead.
import pino from 'pino';

export type Logger = pino.Logger;

export const createLogger = (level: string, terminal = process.stdout.isTTY === true) =>
  pino({
    level,
    base: { service: 'docs-platform-api' },
    ...(terminal && { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' } } }),
  });
