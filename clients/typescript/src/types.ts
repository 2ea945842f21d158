// Names for the generated OpenAPI types (src/openapi.generated.ts) that integrators use by hand:
// request and response bodies, the problem+json error and the webhook events. Events are read off
// the document's `webhooks` map, so an event type added to the server appears here on regeneration.
import type { components, webhooks } from './openapi.generated.ts';

type Schemas = components['schemas'];

export type EntrySubmission = Schemas['EntrySubmission'];
export type EntryAccepted = Schemas['EntryAccepted'];
export type Entry = Schemas['Entry'];
export type Award = Schemas['Award'];
export type Prize = Schemas['Prize'];
export type Problem = Schemas['Problem'];
export type EntryStatus = Entry['status'];

type EventOf<W> = W extends { post: { requestBody: { content: { 'application/json': infer E } } } } ? E : never;

/** Every event ces POSTs to a webhook endpoint, a union discriminated by `event_type`. */
export type CesEvent = { [K in keyof webhooks]: EventOf<webhooks[K]> }[keyof webhooks];
export type CesEventType = CesEvent['event_type'];
/** The event of one type: `CesEventOf<'entry.evaluated'>`. */
export type CesEventOf<T extends CesEventType> = Extract<CesEvent, { event_type: T }>;
/** What GET /v1/events lists: every event but `ping`. */
export type ListedEvent = Schemas['EventList']['data'][number];
