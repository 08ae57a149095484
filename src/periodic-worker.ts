/**
 * A background worker that runs one pass at start and then every `intervalMs` (retention
 * jobs). A pass that fails is logged and retried at the next interval: housekeeping must not
 * take the service down. stop() lets the pass in hand finish; the pass sees `shouldStop()`
 * turn true and returns between its batches.
 */
import type { Logger } from 'pino';

/** Background work of an instance: started once, stopped at SIGTERM once the work in hand is done (workers.ts lists them). */
export type Worker = { name: string; start(): void; stop(): Promise<void> };

export type PeriodicWorkerOptions = {
  name: string;
  intervalMs: number;
  logger: Logger;
  pass(shouldStop: () => boolean): Promise<void>;
};

/**
 * @example
 *   createPeriodicWorker({ name: 'event-retention', intervalMs: 3_600_000, logger, pass: (shouldStop) => prune(shouldStop) });
 */
export function createPeriodicWorker(options: PeriodicWorkerOptions): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopping = false;

  const pass = async () => {
    try {
      await options.pass(() => stopping);
    } catch (error) {
      options.logger.error({ err: error, worker: options.name }, `${options.name} pass failed; retrying at the next interval`);
    }
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = pass().finally(() => {
        running = undefined;
        if (!stopping) schedule(options.intervalMs);
      });
    }, delayMs);
    timer.unref();
  };

  return {
    name: options.name,
    start() {
      stopping = false;
      schedule(0);
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
