// Untrusted JSON may hold objects with their own "toString" or "valueOf" key that is not a
// function. Turning such an object into text (as superstruct does to word a failure message)
// throws a TypeError, which would become a 500. A non-enumerable Symbol.toPrimitive makes it print
// as [object Object]; its keys, values and JSON are unchanged.
const toPrimitive = { value: () => '[object Object]' };

/** Makes one object safe to print. */
function markPrintable(value: unknown): void {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && (Object.hasOwn(value, 'toString') || Object.hasOwn(value, 'valueOf'))) {
    if (!Object.hasOwn(value, Symbol.toPrimitive)) Object.defineProperty(value, Symbol.toPrimitive, toPrimitive);
  }
}

/** Makes every object inside a parsed JSON value safe to print. */
export function makePrintable(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  markPrintable(value);
  for (const inner of Object.values(value)) makePrintable(inner);
}
