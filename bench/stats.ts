// Small figures helpers the bench phases share: a figure rounded for the report, the median of
// repeated runs.

/** `x` rounded to `digits` decimals (0: a whole number). */
export const round = (x: number, digits = 0): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** The median of `xs`: the middle value, or the mean of the two middle ones; 0 for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
