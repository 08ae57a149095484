/**
 * A growable ring buffer of timestamps in non-decreasing order: the request log of one key.
 *
 * Why a ring and not an array with shift(): entries leave from the front as the window slides
 * and arrive at the back, so a ring makes both O(1) without re-indexing, and a Float64Array
 * keeps one key's log in one small allocation. The memory limiter never holds more than `limit`
 * entries per key (a denied request is not logged), but the capacity starts at no more than
 * 128 entries and doubles as entries arrive: a limit raised by RATE_LIMIT_SCALE (120 × 10⁶ in
 * the GET /rules bench) once allocated a 960 MB buffer per key, and each such allocation made
 * V8 collect garbage at once (100 keys stalled a PGlite instance for seconds).
 */
const MAX_INITIAL_CAPACITY = 128;

export class TimestampRing {
  #buffer: Float64Array;
  #head = 0;
  #size = 0;

  /**
   * @example
   * const ring = new TimestampRing(3);
   * ring.push(0); ring.push(400);
   * ring.dropThrough(0); // removes 0, ring.size === 1
   */
  constructor(capacity: number) {
    this.#buffer = new Float64Array(Math.min(MAX_INITIAL_CAPACITY, Math.max(1, capacity)));
  }

  get size(): number {
    return this.#size;
  }

  /** The `index`-th oldest timestamp (0 is the oldest). */
  at(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.#size) {
      throw new RangeError(`index ${index} outside a ring of ${this.#size}`);
    }
    return this.#read((this.#head + index) % this.#buffer.length);
  }

  /** The newest timestamp, or undefined when the ring is empty. */
  newest(): number | undefined {
    return this.#size === 0 ? undefined : this.at(this.#size - 1);
  }

  /** Appends a timestamp; the caller keeps them non-decreasing. */
  push(timestamp: number): void {
    if (this.#size === this.#buffer.length) this.#grow();
    this.#buffer[(this.#head + this.#size) % this.#buffer.length] = timestamp;
    this.#size += 1;
  }

  /** Removes every timestamp <= `cutoff` from the front (they have left the window). */
  dropThrough(cutoff: number): void {
    while (this.#size > 0 && this.#read(this.#head) <= cutoff) {
      this.#head = (this.#head + 1) % this.#buffer.length;
      this.#size -= 1;
    }
    if (this.#size === 0) this.#head = 0;
  }

  #read(slot: number): number {
    const value = this.#buffer[slot];
    if (value === undefined) throw new RangeError(`slot ${slot} outside the buffer`);
    return value;
  }

  #grow(): void {
    const next = new Float64Array(this.#buffer.length * 2);
    for (let i = 0; i < this.#size; i += 1) next[i] = this.at(i);
    this.#buffer = next;
    this.#head = 0;
  }
}
