/**
 * JSON text for values of any nesting depth. Condition trees are unbounded in depth (SPEC
 * "ConditionNode"), and V8's JSON.stringify throws a RangeError past about 10,000 levels, so
 * the native serializer is tried first and an iterative one takes over only when it overflows.
 */

type Frame =
  | { kind: 'array'; items: readonly unknown[]; index: number }
  | { kind: 'object'; entries: Array<[string, unknown]>; index: number };

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError;
}

function scalar(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return undefined;
  }
}

function toJsonValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

function open(value: object, out: string[], stack: Frame[]): void {
  if (Array.isArray(value)) {
    out.push('[');
    stack.push({ kind: 'array', items: value, index: 0 });
  } else {
    out.push('{');
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
    stack.push({ kind: 'object', entries, index: 0 });
  }
}

/** The iterative serializer; same output as JSON.stringify without spacing or replacer. */
export function stringifyDeep(root: unknown): string {
  const first = toJsonValue(root);
  const rootScalar = scalar(first);
  if (rootScalar !== undefined) return rootScalar;
  if (first === null || typeof first !== 'object') return 'null';
  const out: string[] = [];
  const stack: Frame[] = [];
  open(first, out, stack);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.kind === 'array') {
      if (frame.index >= frame.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (frame.index > 0) out.push(',');
      const item = toJsonValue(frame.items[frame.index]);
      frame.index += 1;
      const text = scalar(item);
      if (text !== undefined) out.push(text);
      else if (item !== null && typeof item === 'object') open(item, out, stack);
      else out.push('null');
    } else {
      if (frame.index >= frame.entries.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const entry = frame.entries[frame.index] as [string, unknown];
      if (frame.index > 0) out.push(',');
      frame.index += 1;
      out.push(JSON.stringify(entry[0]), ':');
      const item = toJsonValue(entry[1]);
      const text = scalar(item);
      if (text !== undefined) out.push(text);
      else if (item !== null && typeof item === 'object') open(item, out, stack);
      else out.push('null');
    }
  }
  return out.join('');
}

/**
 * JSON.stringify that does not overflow on deep values.
 *
 * @example
 *   stringifyJson({ a: [1, 2] }); // '{"a":[1,2]}'
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    return stringifyDeep(value);
  }
}

/**
 * A body already written as JSON: the reply serializer (app.ts) sends its text as it is. A
 * hot route that writes its answer directly (POST /evaluate) skips building objects only to
 * have them stringified.
 *
 * @example
 *   return new JsonText('{"ok":true}');
 */
export class JsonText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/**
 * The app's reply serializer: JSON of any depth, or a JsonText's text as it is.
 *
 * @example
 *   serializeReply(new JsonText('[1]')); // '[1]'
 */
export function serializeReply(payload: unknown): string {
  return payload instanceof JsonText ? payload.text : stringifyJson(payload);
}
