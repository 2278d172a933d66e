// One request-log entry as it is published and as it is written (from the waiting log, waiting-log.ts).
import { randomInt } from 'node:crypto';
import { base62 } from '../domain/ids.js';
import type { RequestLogJson } from '../domain/request-log.js';
import type { RequestLogEntry } from '../store/request-log.js';
import { maskText } from './mask.js';
import { formatMicros } from '../domain/time.js';
import type { WaitingInput } from './waiting-log.js';

const RANDOM_DIGITS = 8;
const utf8 = new TextDecoder();

/** A body as text (a body kept as bytes is UTF-8). */
export function bodyText(body: string | Uint8Array | null): string | null {
  return body == null || typeof body === 'string' ? body : utf8.decode(body);
}

/** The random part of an entry's id, kept as a number while the entry waits (see requestId). */
export const randomPart = (): number => randomInt(62 ** RANDOM_DIGITS);

/**
 * `req_` + the seq (base 36, fixed width) + 8 random base62 digits: unique, unguessable enough, and
 * in insertion order, so the primary-key index grows at its end instead of splitting pages at random.
 */
function requestId(seq: number, rnd: number): string {
  return `req_${seq.toString(36).padStart(8, '0')}${base62(rnd, RANDOM_DIGITS)}`;
}

/**
 * A waiting entry, as published and as written: bodies clipped. Its fields are the API's, read
 * through the prototype's getters, and its id, masked path, time and bodies are made only when first
 * read: `serve --log pretty` past its lines a second reads none, and under sustained load most
 * entries are never written. (The same getters on an object literal made each published entry a
 * dozen objects that outlived the young generation: docs/performance.md.)
 */
export class LoggedEntry implements RequestLogJson {
  private maskedRequest: string | null | undefined;
  private maskedResponse: string | null | undefined;
  private id: string | undefined;
  private maskedPath: string | undefined;
  private createdAtText: string | undefined;
  constructor(private readonly r: WaitingInput) {}
  get request_id(): string {
    return (this.id ??= requestId(this.r.seq, this.r.rnd));
  }
  get method(): string {
    return this.r.method;
  }
  get path(): string {
    return (this.maskedPath ??= maskText(this.r.path));
  }
  get status(): number {
    return this.r.status;
  }
  get duration_ms(): number {
    return Math.round(this.r.durationMs * 1000) / 1000;
  }
  get site_id(): string | null {
    return this.r.siteId;
  }
  get request_body(): string | null {
    if (this.maskedRequest === undefined) this.maskedRequest = this.r.requestBody == null ? null : maskText(bodyText(this.r.requestBody)!);
    return this.maskedRequest;
  }
  get response_body(): string | null {
    if (this.maskedResponse === undefined) this.maskedResponse = this.r.responseBody == null ? null : maskText(bodyText(this.r.responseBody)!);
    return this.maskedResponse;
  }
  get created_at(): string {
    return (this.createdAtText ??= formatMicros(this.r.atUs));
  }
  /** The published form as JSON (getters on a prototype are not own properties). */
  toJSON(): RequestLogJson {
    return {
      request_id: this.request_id, method: this.method, path: this.path, status: this.status, duration_ms: this.duration_ms,
      site_id: this.site_id, request_body: this.request_body, response_body: this.response_body, created_at: this.created_at,
    };
  }
  /** The stored form. */
  row(): RequestLogEntry {
    return { ...this.toJSON(), seq: this.r.seq };
  }
}
