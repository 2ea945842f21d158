// Numbers an operator types as CLI options ("50", "12.5", "-1"). Number() alone reads "" and "  "
// as 0, "0x10" as 16 and "1e3" as 1000, so `--stock ""` registered a prize with no stock instead of
// being refused like `--stock abc`.
const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;

/** The value of a decimal number written out in digits; NaN for anything else. */
export function parseDecimal(value: string | number): number {
  if (typeof value === 'number') return value;
  return DECIMAL.test(value) ? Number(value) : Number.NaN;
}
