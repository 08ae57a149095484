/**
 * An instruction meter for a WebAssembly module, as the platform's function runner counts:
 * the runner gives wasmtime "fuel" and reports what was consumed as "instructions", one unit per
 * executed operator except those that generate no code (`nop`, `drop`, `block`, `loop`, `else`,
 * `end`, `return`, `unreachable` cost 0 — wasmtime's default operator cost).
 *
 * `meterWasm` rewrites a module's code so that it counts exactly that: it splits every function
 * body into straight-line segments (a segment starts at the function's entry and after every
 * operator control can leave or re-enter by: `loop`, `if`, `else`, `end`, `br`, `br_if`,
 * `br_table`, `return`, `unreachable`) and prepends to each segment
 * `global.get $n; i64.const <cost of the segment>; i64.add; global.set $n`. A segment is only
 * ever entered at its start and, without a trap, runs to its end, so the global ends up with the
 * cost of the operators executed. The added global (mutable i64) is exported as
 * `METER_EXPORT`; the added instructions are not counted. Branch targets in WebAssembly are
 * structured depths, not byte offsets, so inserting code moves nothing else.
 *
 * @example
 *   const { instance } = await wasm.instantiate(meterWasm(bytes), imports);
 *   (instance.exports[METER_EXPORT] as WasmCounter).value; // bigint
 */

export const METER_EXPORT = '__instructions';

/** The little of the WebAssembly JS API used with the meter (the project's `lib` has no DOM types). */
export type WasmInstance = { exports: Record<string, unknown> };
/** The exported counter: a mutable i64 global. */
export type WasmCounter = { value: bigint };
export const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<object>;
      Instance: new (module: object, imports?: object) => WasmInstance;
      instantiate(bytes: Uint8Array, imports?: object): Promise<{ instance: WasmInstance; module: object }>;
    };
  }
).WebAssembly;

const SECTION = { custom: 0, import: 2, global: 6, export: 7, code: 10 } as const;
/** Where a new global section goes: after these section ids (type…memory, and tag = 13). */
const BEFORE_GLOBAL = new Set([1, 2, 3, 4, 5, 13]);

class Reader {
  readonly bytes: Uint8Array;
  offset: number;
  constructor(bytes: Uint8Array, offset = 0) {
    this.bytes = bytes;
    this.offset = offset;
  }
  byte(): number {
    const value = this.bytes[this.offset++];
    if (value === undefined) throw new Error('wasm-meter: unexpected end of module');
    return value;
  }
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  }
  /** Skips a (signed or unsigned) LEB128 of any width. */
  skipLeb(): void {
    while ((this.byte() & 0x80) !== 0);
  }
  skip(count: number): void {
    this.offset += count;
  }
}

function uleb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let b = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest !== 0) b |= 0x80;
    out.push(b);
  } while (rest !== 0);
  return out;
}

function sleb(value: bigint): number[] {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const b = Number(rest & 0x7fn);
    rest >>= 7n;
    const done = (rest === 0n && (b & 0x40) === 0) || (rest === -1n && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

const concat = (parts: ArrayLike<number>[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const section = (id: number, content: Uint8Array) => concat([[id], uleb(content.length), content]);
const name = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  return concat([uleb(bytes.length), bytes]);
};

/** Reads a block type (empty, one value type, or a type index as s33). */
function skipBlockType(r: Reader): void {
  const first = r.bytes[r.offset];
  if (first === 0x40 || (first !== undefined && first >= 0x6f && first <= 0x7f)) r.skip(1);
  else r.skipLeb();
}

function skipMemarg(r: Reader): void {
  const align = r.u32();
  if ((align & 0x40) !== 0) r.u32(); // multi-memory: a memory index follows
  r.u32();
}

/** Operators after which a new segment starts (control may leave or enter here). */
const ENDS_SEGMENT = new Set([0x00, 0x03, 0x04, 0x05, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f]);
/** Wasmtime's default operator cost: these generate no code. */
const FREE = new Set([0x00, 0x01, 0x02, 0x03, 0x05, 0x0b, 0x0f, 0x1a]);

/**
 * Skips one operator's immediates (the opcode already read); throws on an operator this meter
 * does not know (SIMD, atomics, exception handling), so a module using one is never
 * miscounted silently.
 */
function skipImmediates(r: Reader, op: number): void {
  if (op === 0x02 || op === 0x03 || op === 0x04) return skipBlockType(r);
  if (op === 0x0c || op === 0x0d || op === 0x10 || op === 0x12 || (op >= 0x20 && op <= 0x26) || op === 0xd2) return void r.u32();
  if (op === 0x0e) {
    const count = r.u32();
    for (let i = 0; i <= count; i++) r.u32();
    return;
  }
  if (op === 0x11 || op === 0x13) return void (r.u32(), r.u32());
  if (op === 0x1c) return void r.skip(r.u32());
  if (op >= 0x28 && op <= 0x3e) return skipMemarg(r);
  if (op === 0x3f || op === 0x40) return void r.u32();
  if (op === 0x41 || op === 0x42) return r.skipLeb();
  if (op === 0x43) return r.skip(4);
  if (op === 0x44) return r.skip(8);
  if (op === 0xd0) return r.skip(1);
  if (op === 0xfc) {
    const sub = r.u32();
    if (sub <= 7) return;
    if (sub === 8 || sub === 10 || sub === 12 || sub === 14) return void (r.u32(), r.u32());
    if (sub <= 17) return void r.u32();
    throw new Error(`wasm-meter: unknown operator 0xfc ${sub}`);
  }
  const plain = op === 0x00 || op === 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b || (op >= 0x45 && op <= 0xc4) || op === 0xd1;
  if (!plain) throw new Error(`wasm-meter: unknown operator 0x${op.toString(16)}`);
}

/** One function body with a counter increment at the start of every segment. */
function meterBody(body: Uint8Array, counter: number[]): Uint8Array {
  const r = new Reader(body);
  const groups = r.u32();
  for (let i = 0; i < groups; i++) {
    r.u32();
    r.skip(1);
  }
  const parts: ArrayLike<number>[] = [body.subarray(0, r.offset)];
  let depth = 1;
  let segmentStart = r.offset;
  let cost = 0;
  const flush = (end: number) => {
    if (cost > 0) parts.push(concat([[0x23, ...counter, 0x42, ...sleb(BigInt(cost)), 0x7c, 0x24, ...counter]]));
    parts.push(body.subarray(segmentStart, end));
    segmentStart = end;
    cost = 0;
  };
  while (depth > 0) {
    const op = r.byte();
    skipImmediates(r, op);
    if (!FREE.has(op)) cost++;
    if (op === 0x02 || op === 0x03 || op === 0x04) depth++;
    if (op === 0x0b) depth--;
    if (ENDS_SEGMENT.has(op)) flush(r.offset);
  }
  if (r.offset !== body.length) throw new Error('wasm-meter: function body does not end at its last end');
  return concat(parts);
}

function countImportedGlobals(content: Uint8Array): number {
  const r = new Reader(content);
  let globals = 0;
  const entries = r.u32();
  for (let i = 0; i < entries; i++) {
    r.skip(r.u32());
    r.skip(r.u32());
    const kind = r.byte();
    if (kind === 0x00) r.u32();
    else if (kind === 0x01 || kind === 0x02) {
      if (kind === 0x01) r.skip(1);
      const flags = r.byte();
      r.u32();
      if ((flags & 0x01) !== 0) r.u32();
    } else if (kind === 0x03) {
      r.skip(2);
      globals++;
    } else if (kind === 0x04) {
      r.skip(1);
      r.u32();
    } else throw new Error(`wasm-meter: unknown import kind ${kind}`);
  }
  return globals;
}

/** Appends entries to a vector section's content (`count`, then the entries). */
function appendToVector(content: Uint8Array | undefined, entry: Uint8Array): Uint8Array {
  if (content === undefined) return concat([[1], entry]);
  const r = new Reader(content);
  const count = r.u32();
  return concat([uleb(count + 1), content.subarray(r.offset), entry]);
}

/**
 * The module with its instruction meter: an exported mutable i64 global `METER_EXPORT` that
 * grows by the cost of every operator executed (see the file's comment).
 */
export function meterWasm(module: Uint8Array): Uint8Array {
  const r = new Reader(module, 8);
  const sections: Array<{ id: number; content: Uint8Array }> = [];
  while (r.offset < module.length) {
    const id = r.byte();
    const size = r.u32();
    sections.push({ id, content: module.subarray(r.offset, r.offset + size) });
    r.skip(size);
  }
  const importSection = sections.find((s) => s.id === SECTION.import);
  const globalSection = sections.find((s) => s.id === SECTION.global);
  let definedGlobals = 0;
  if (globalSection !== undefined) definedGlobals = new Reader(globalSection.content).u32();
  const index = (importSection === undefined ? 0 : countImportedGlobals(importSection.content)) + definedGlobals;
  const counter = uleb(index);
  const newGlobal = Uint8Array.from([0x7e, 0x01, 0x42, 0x00, 0x0b]); // (mut i64) (i64.const 0)
  const newExport = concat([name(METER_EXPORT), [0x03], counter]);

  const out: Uint8Array[] = [module.subarray(0, 8)];
  let globalWritten = false;
  for (const { id, content } of sections) {
    if (!globalWritten && id !== SECTION.custom && !BEFORE_GLOBAL.has(id) && id !== SECTION.global) {
      out.push(section(SECTION.global, appendToVector(undefined, newGlobal)));
      globalWritten = true;
    }
    if (id === SECTION.global) {
      out.push(section(id, appendToVector(content, newGlobal)));
      globalWritten = true;
    } else if (id === SECTION.export) out.push(section(id, appendToVector(content, newExport)));
    else if (id === SECTION.code) {
      const code = new Reader(content);
      const count = code.u32();
      const bodies: ArrayLike<number>[] = [uleb(count)];
      for (let i = 0; i < count; i++) {
        const size = code.u32();
        const body = meterBody(content.subarray(code.offset, code.offset + size), counter);
        code.skip(size);
        bodies.push(uleb(body.length), body);
      }
      out.push(section(id, concat(bodies)));
    } else out.push(section(id, content));
  }
  if (!sections.some((s) => s.id === SECTION.export)) throw new Error('wasm-meter: a module without exports cannot be read');
  return concat(out);
}
