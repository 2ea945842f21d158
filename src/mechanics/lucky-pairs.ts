// Pair arithmetic shared by the automatic and the manual lucky numbers, and how a pair is shown.

/** order_number runs 00000..99999 in every series. */
export const PAIRS_PER_SERIES = 100_000;

/** A pair as the API, the CLI and the LGPD export show it: the order number padded to five digits. */
export function formatPair(series: number, orderNumber: number): { series: string; order_number: string } {
  return { series: String(series), order_number: String(orderNumber).padStart(5, '0') };
}
