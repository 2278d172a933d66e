// The console's browser script expands event-type prefixes with STREAM_TYPES (src/browser). These
// types do not compile when that list and the event bus's types differ.
import type { STREAM_TYPES } from '../../browser/stream-types.js';
import type { EmulatorEvent } from '../../events/bus.js';

type Listed = (typeof STREAM_TYPES)[number];
type Never<T extends never> = T;
/** A bus event type missing from STREAM_TYPES. */
export type StreamTypesComplete = Never<Exclude<EmulatorEvent['type'], Listed>>;
/** A listed type the bus does not publish. */
export type StreamTypesKnown = Never<Exclude<Listed, EmulatorEvent['type']>>;
