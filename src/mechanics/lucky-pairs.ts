// Pair arithmetic shared by the automatic and the manual lucky numbers.

/** order_number runs 00000..99999 in every series. */
export const PAIRS_PER_SERIES = 100_000;

export function formatPair(series: number, orderNumber: number): { series: string; order_number: string } {
  return { series: String(series), order_number: String(orderNumber).padStart(5, '0') };
}
