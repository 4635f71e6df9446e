// Structured logs (pino): one JSON line per event, every request line with its request id and its actor (user and
// token ids). On a terminal, the same lines are printed readably (pino-pretty) instead.
import pino from 'pino';

export type Logger = pino.Logger;

/** A logger writing to stdout, or to stderr (`destination` 2) for a command whose stdout is its result. */
export const createLogger = (level: string, terminal = process.stdout.isTTY === true, destination: 1 | 2 = 1) =>
  pino(
    {
      level,
      base: { service: 'docs-platform-api' },
      ...(terminal && {
        transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', destination } },
      }),
    },
    terminal || destination === 1 ? undefined : pino.destination(2),
  );
