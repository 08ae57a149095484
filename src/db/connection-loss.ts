/**
 * Whether a database error means the connection, not the statement, failed: the server ended
 * it (an administrator, a restart, a failover), the network dropped it, or no connection could
 * be had in time. The statement may be fine; the caller gets a 503 and may try again.
 */
import { causesOf, sqlStateOf } from './sql-state.ts';

// SQLSTATE class 08 (connection exception), and the server ending or refusing sessions:
// 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown,
// 57P03 cannot_connect_now (starting up, or a standby), 53300 too_many_connections.
const LOST_STATES = /^(08...|57P0[123]|53300)$/;
// The socket's own failures, as Node names them.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// node-postgres and its pool say these without a code.
const DRIVER_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

/**
 * @example isConnectionLoss(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })) // true
 */
export function isConnectionLoss(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state !== undefined) return LOST_STATES.test(state);
  for (const { code, message } of causesOf(error)) {
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((text) => message.startsWith(text))) return true;
  }
  return false;
}
