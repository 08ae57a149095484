/**
 * The one sentence an operator reads when the database does not open, naming the setting that
 * chose it (README "Configuration": an unreachable `DATABASE_URL` is reported in words, not as a
 * stack trace). Used by `npm start` (server.ts) and the CLI alike.
 */
import { resolve } from 'node:path';

/**
 * Describes why the database of `config` did not open.
 *
 * @example
 *   describeOpenError(new Error('connect ECONNREFUSED 127.0.0.1:1'), { databaseUrl: 'postgres://…', dataDir: './data' });
 *   // 'Could not open the database at DATABASE_URL: connect ECONNREFUSED 127.0.0.1:1.'
 */
export function describeOpenError(error: unknown, config: { databaseUrl: string | undefined; dataDir: string }): string {
  if (error instanceof Error && error.name === 'DataDirLockedError') return error.message;
  const where = config.databaseUrl === undefined ? `the data directory ${resolve(config.dataDir)} (DATA_DIR)` : 'DATABASE_URL';
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error && error.message !== '' ? error.message : String(code ?? error);
  return `Could not open the database at ${where}: ${message}.`;
}
