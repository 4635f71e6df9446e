// The life of a process (`npm start`, `npm run worker`): its parts start in order and stop in reverse order, on
// SIGTERM/SIGINT or when start-up fails. Signals are heard from the first moment: one that comes while the process
// starts is kept until start-up has finished (or failed), so that it never kills the process with the embedded
// PostgreSQL half started; a second one exits at once.
import type { Logger } from './logger.js';

export class Lifecycle {
  #stops: (() => Promise<void> | void)[] = [];
  #state: 'starting' | 'running' | 'stopping' = 'starting';
  #stopRequested: NodeJS.Signals | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly messages: { stopping: string; stopped: string },
  ) {
    const onSignal = (signal: NodeJS.Signals) => this.#onSignal(signal);
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }

  /** Records a part that has started, to be stopped before the parts started earlier. */
  started<T>(part: T, stop: (part: T) => Promise<void> | void): T {
    this.#stops.unshift(() => stop(part));
    return part;
  }

  /** Start-up has finished: a signal that came meanwhile is acted on now. */
  running() {
    this.#state = 'running';
    if (this.#stopRequested) void this.#shutdown(this.#stopRequested);
  }

  /** Start-up failed: stops what had started, says in one line what went wrong, and exits 1. */
  async failed(line: string, error: unknown): Promise<never> {
    this.#state = 'stopping';
    this.logger.debug({ err: error }, 'start-up failed');
    for (const stop of this.#stops) await Promise.resolve(stop()).catch(() => {});
    await this.#flush();
    process.stderr.write(`${line}\n`);
    process.exit(1);
  }

  #onSignal(signal: NodeJS.Signals) {
    if (this.#state === 'running') {
      void this.#shutdown(signal);
    } else if (this.#state === 'starting' && !this.#stopRequested) {
      this.#stopRequested = signal;
      this.logger.info({ signal }, 'stopping once start-up has finished');
    } else {
      // A second Ctrl-C (or SIGTERM) does not wait for in-flight requests or running jobs.
      this.logger.warn({ signal }, 'forced exit');
      process.exit(130);
    }
  }

  async #shutdown(signal: NodeJS.Signals) {
    this.#state = 'stopping';
    this.logger.info({ signal }, this.messages.stopping);
    for (const stop of this.#stops) await stop();
    this.logger.info(this.messages.stopped);
    await this.#flush();
    process.exit(0);
  }

  /** On a terminal the lines go through a worker (pino-pretty): lets them out before exiting. */
  #flush() {
    return new Promise<void>((resolve) => this.logger.flush(() => resolve()));
  }
}
