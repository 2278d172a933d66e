// What `emu.webhooks.waitFor` rejects with when its time is up: a VtrError (code `timeout`) that
// carries the events it saw, so a test can look at them rather than parse the message.
import { VtrError } from '../domain/errors.js';
import type { WebhookEvent } from './api-types.js';

export class WaitForTimeoutError extends VtrError {
  /** The events in the wait's scope as last read, newest first (all of them, not only those the message lists). */
  readonly events: WebhookEvent[];

  constructor(message: string, events: WebhookEvent[]) {
    super('timeout', message);
    this.name = 'WaitForTimeoutError';
    this.events = events;
  }
}
