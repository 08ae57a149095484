/**
 * Per-request child loggers, built only when something is written through them. pino's
 * `child()` serialises its bindings at once; two children per request (Fastify's request id,
 * the caller's shop) cost ~10% of GET /rules' CPU with LOG_LEVEL=silent, and the same at
 * `warn`, where a successful request writes nothing either. So a child is a promise of one: its
 * bindings are kept as they are and the pino child is made at the first call of a level the
 * logger writes (at `info`, Fastify's "incoming request"; the shop's child then stays a promise
 * unless a handler logs). The level is set once from the configuration and never changed at
 * run time, so "would this call write" is the parent's answer at the time of the call.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilent } from 'pino';

type WritingLevel = Exclude<LevelWithSilent, 'silent'>;

/** Whether `logger` would write a call at `level` (pino's isLevelEnabled, or a lazy child's). */
function writes(logger: FastifyBaseLogger, level: WritingLevel): boolean {
  const check = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof check === 'function' ? check.call(logger, level) : true;
}

/** A child logger that is made the first time a call would write. */
class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions | undefined;
  #built: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions | undefined) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The pino child these bindings stand for; made once. */
  built(): FastifyBaseLogger {
    // A promise's own child() is another promise: build from the parent's real logger.
    const parent = this.#parent instanceof LazyChildLogger ? this.#parent.built() : this.#parent;
    this.#built ??= parent.child(this.#bindings, this.#options);
    return this.#built;
  }

  get level(): string {
    return this.#built?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.built().level = level;
  }

  isLevelEnabled(level: WritingLevel): boolean {
    return writes(this.#built ?? this.#parent, level);
  }

  #call(level: WritingLevel, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    const logger = this.built();
    (logger[level] as (...rest: unknown[]) => void).apply(logger, args);
  }

  fatal(...args: unknown[]): void {
    this.#call('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#call('error', args);
  }

  warn(...args: unknown[]): void {
    this.#call('warn', args);
  }

  info(...args: unknown[]): void {
    this.#call('info', args);
  }

  debug(...args: unknown[]): void {
    this.#call('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#call('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return childLogger(this, bindings, options);
  }
}

/**
 * `logger.child(bindings)` as it will be when first written to, or `logger` itself when it is
 * silent. A child that changes its level or serializers is made at once (its level decides
 * what writes).
 *
 * @example
 *   request.log = childLogger(request.log, { shopId: shop.id });
 */
export function childLogger(logger: FastifyBaseLogger, bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
  if (logger.level === 'silent') return logger;
  if (options?.level !== undefined || options?.serializers !== undefined) {
    return logger instanceof LazyChildLogger ? logger.built().child(bindings, options) : logger.child(bindings, options);
  }
  return new LazyChildLogger(logger, bindings, options);
}
