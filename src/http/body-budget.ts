/**
 * A budget of bytes for request bodies that are held before anyone knows whether they may be
 * (the platform's webhooks: the signature covers the whole body, so the body is kept until its
 * last byte is hashed). Issue 20 item 3: 60 concurrent unsigned 8 MiB bodies grew an instance by
 * ~400 MB; with a budget, a request whose body does not fit waits, unread, for earlier ones to
 * finish (TCP holds the rest of its bytes in the client), so the bodies held at once never
 * exceed the budget whatever a caller sends.
 *
 * First come, first served: a large body is never starved by a stream of small ones. A body
 * larger than the whole budget is admitted alone. Hand-written rather than a semaphore package:
 * a waiter must be withdrawn when its client goes away, which the common ones cannot do for one
 * waiter.
 */

export type BodyBudget = {
  /**
   * Resolves with a `release` once `bytes` fit in the budget; rejects with `signal`'s reason if
   * it aborts first. Call `release` exactly once when the bytes are no longer held.
   */
  reserve(bytes: number, signal: AbortSignal): Promise<() => void>;
  /** Bytes reserved now (for tests and logs). */
  inUse(): number;
};

type Waiter = { bytes: number; admit: () => void };

/**
 * A budget of `totalBytes`.
 *
 * @example
 *   const budget = createBodyBudget(32 * 1024 * 1024);
 *   const release = await budget.reserve(8 * 1024 * 1024, controller.signal);
 *   try { await readBody(); } finally { release(); }
 */
export function createBodyBudget(totalBytes: number): BodyBudget {
  let used = 0;
  const queue: Waiter[] = [];
  // Admits waiters in order while the first fits (or nothing is held: a body above the
  // whole budget then runs alone).
  const admitWaiting = () => {
    for (let first = queue[0]; first && (used === 0 || used + first.bytes <= totalBytes); first = queue[0]) {
      queue.shift();
      used += first.bytes;
      first.admit();
    }
  };
  const releaser = (bytes: number) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      used -= bytes;
      admitWaiting();
    };
  };
  return {
    reserve(bytes, signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (queue.length === 0 && (used === 0 || used + bytes <= totalBytes)) {
        used += bytes;
        return Promise.resolve(releaser(bytes));
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          // A large waiter leaving can let smaller ones behind it in.
          admitWaiting();
          reject(signal.reason);
        };
        const waiter: Waiter = {
          bytes,
          admit: () => {
            signal.removeEventListener('abort', onAbort);
            resolve(releaser(bytes));
          },
        };
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
      });
    },
    inUse: () => used,
  };
}
