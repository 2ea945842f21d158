// Untrusted JSON must be safe to turn into text, as superstruct does to word a failure message
// ("Expected a string, but received: ..."). Two shapes are not:
//
// - an object with its own "toString" or "valueOf" key that is not a function: printing it throws
//   a TypeError;
// - arrays nested a few thousand deep: an array prints by joining its elements, each printed in
//   turn, and that recursion overflows the stack (a RangeError) long before the body limit.
//
// Either would become a 500. A non-enumerable Symbol.toPrimitive makes such an object print as
// [object Object], and an array MAX_PRINT_DEPTH levels down prints as "[...]", which stops the
// recursion there; keys, values and JSON are unchanged. The walk itself keeps its own stack, so
// no nesting that JSON.parse accepts can overflow it.
const objectPrimitive = { value: () => '[object Object]' };
const arrayPrimitive = { value: () => '[...]' };

/** Arrays this deep or deeper print as "[...]"; a request body needs far fewer levels. */
export const MAX_PRINT_DEPTH = 64;

/** Makes every object and array inside a parsed JSON value safe to print. */
export function makePrintable(root: unknown): void {
  if (typeof root !== 'object' || root === null) return;
  // Pairs of (value, depth), flattened: no object per visited value on the request path.
  const pending: unknown[] = [root, 0];
  while (pending.length > 0) {
    const depth = pending.pop() as number;
    const value = pending.pop() as object;
    if (Array.isArray(value)) {
      if (depth >= MAX_PRINT_DEPTH) {
        if (!Object.hasOwn(value, Symbol.toPrimitive)) Object.defineProperty(value, Symbol.toPrimitive, arrayPrimitive);
        continue;
      }
    } else if (Object.hasOwn(value, 'toString') || Object.hasOwn(value, 'valueOf')) {
      if (!Object.hasOwn(value, Symbol.toPrimitive)) Object.defineProperty(value, Symbol.toPrimitive, objectPrimitive);
    }
    for (const inner of Object.values(value)) {
      if (typeof inner === 'object' && inner !== null) pending.push(inner, depth + 1);
    }
  }
}
