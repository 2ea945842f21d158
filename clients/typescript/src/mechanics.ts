// The mechanics of an evaluated entry (`entry.evaluated` data, GET /v1/entries/{id}), narrowed by
// `mechanic_type`: the document gives `outcome` as a union of every mechanic's shapes, so a lucky
// numbers outcome and an instant prize outcome would otherwise need guessing by their fields.
// narrowMechanics checks each outcome against its mechanic_type once and returns a union that
// TypeScript narrows with `switch (m.mechanic_type)`.
import type { Entry } from './types.ts';

/** One mechanic as the generated types give it. */
export type Mechanic = NonNullable<Entry['mechanics']>[number];
type AnyOutcome = Mechanic['outcome'];

/** Lucky numbers: `{numbers}` (automatic), `{quantity, series_count}` (manual: submit them), or `{reason: 'pool_exhausted', …}`. */
export type LuckyNumbersOutcome = Exclude<AnyOutcome, { won: unknown }>;
/** Instant prize: `{won: true, prize_definition_id, prize_name, award_status}`, or `{won: false}`. */
export type InstantPrizeOutcome = Extract<AnyOutcome, { won: unknown }>;

type Common = Omit<Mechanic, 'mechanic_type' | 'outcome'>;
export type LuckyNumbersMechanic = Common & { mechanic_type: 'lucky_numbers'; outcome: LuckyNumbersOutcome };
export type InstantPrizeMechanic = Common & { mechanic_type: 'instant_prize'; outcome: InstantPrizeOutcome };
export type NarrowedMechanic = LuckyNumbersMechanic | InstantPrizeMechanic;

/**
 * The mechanics, typed by `mechanic_type` ([] for null: an entry not evaluated). Throws a
 * TypeError for an outcome that does not belong to its mechanic_type, or a mechanic this client
 * does not know: the server is newer than the client, regenerate it.
 */
export function narrowMechanics(mechanics: readonly Mechanic[] | null | undefined): NarrowedMechanic[] {
  return (mechanics ?? []).map((m) => {
    if (m.mechanic_type === 'lucky_numbers' && !('won' in m.outcome)) return m as LuckyNumbersMechanic;
    if (m.mechanic_type === 'instant_prize' && 'won' in m.outcome) return m as InstantPrizeMechanic;
    throw new TypeError(`a ${String(m.mechanic_type)} mechanic with the outcome ${JSON.stringify(m.outcome)} is unknown to this client`);
  });
}

/** The lucky numbers mechanic of the list, if the campaign has one. */
export function luckyNumbersOf(mechanics: readonly Mechanic[] | null | undefined): LuckyNumbersMechanic | undefined {
  return narrowMechanics(mechanics).find((m): m is LuckyNumbersMechanic => m.mechanic_type === 'lucky_numbers');
}

/** The instant prize mechanic of the list, if the campaign has one. */
export function instantPrizeOf(mechanics: readonly Mechanic[] | null | undefined): InstantPrizeMechanic | undefined {
  return narrowMechanics(mechanics).find((m): m is InstantPrizeMechanic => m.mechanic_type === 'instant_prize');
}
