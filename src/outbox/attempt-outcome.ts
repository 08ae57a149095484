/** What one outbox attempt came to; the dispatcher turns it into the row's next state. */
export type AttemptOutcome =
  | { ok: true; statusCode: number | null; durationMs: number }
  | {
      ok: false;
      statusCode: number | null;
      error: string;
      durationMs: number;
      /** The receiver's Retry-After, in ms from the end of the attempt. */
      retryAfterMs?: number;
      /** 410 Gone: the endpoint is disabled and nothing more is sent to it. */
      gone?: boolean;
      /** Retrying cannot help (e.g. a malformed job): fail now. */
      final?: boolean;
      /** The destination policy refused the connection: nothing reached the receiver's address. */
      refused?: boolean;
    };
