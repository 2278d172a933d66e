// One request-log entry while it waits in memory for its batch (see request-logger.ts).
import { randomId } from '../domain/ids.js';
import type { RequestLogJson } from '../domain/request-log.js';
import type { RequestLogEntry } from '../store/request-log.js';
import { maskText } from './mask.js';
import { formatMicros } from '../domain/time.js';
import { bodyText, type RequestSeen } from './request-logger.js';

/**
 * `req_` + the seq (base 36, fixed width) + randomness: unique, unguessable enough, and in insertion
 * order, so the primary-key index grows at its end instead of splitting pages at random.
 */
function requestId(seq: number): string {
  return `req_${seq.toString(36).padStart(8, '0')}${randomId(8)}`;
}

/**
 * An entry waiting in memory: bodies clipped. Its id, masked path and time are made when first
 * needed (published or written): under sustained load most entries are neither, and are dropped.
 */
export class WaitingEntry {
  private maskedRequest: string | null | undefined;
  private maskedResponse: string | null | undefined;
  private id: string | undefined;
  private maskedPath: string | undefined;
  private createdAtText: string | undefined;
  /** Roughly what the entry holds in memory (the bodies dominate). */
  readonly bytes: number;
  constructor(
    readonly seq: number,
    readonly r: RequestSeen,
    readonly siteId: string | null,
  ) {
    this.bytes = (r.requestBody?.length ?? 0) + (r.responseBody?.length ?? 0) + 200;
  }
  get requestId(): string {
    return (this.id ??= requestId(this.seq));
  }
  get path(): string {
    return (this.maskedPath ??= maskText(this.r.path));
  }
  get createdAt(): string {
    return (this.createdAtText ??= formatMicros(this.r.atUs));
  }
  get requestBody(): string | null {
    if (this.maskedRequest === undefined) this.maskedRequest = this.r.requestBody == null ? null : maskText(bodyText(this.r.requestBody)!);
    return this.maskedRequest;
  }
  get responseBody(): string | null {
    if (this.maskedResponse === undefined) this.maskedResponse = this.r.responseBody == null ? null : maskText(bodyText(this.r.responseBody)!);
    return this.maskedResponse;
  }
  /** The stored form. */
  row(): RequestLogEntry {
    return {
      request_id: this.requestId, method: this.r.method, path: this.path, status: this.r.status,
      duration_ms: this.durationMs(), site_id: this.siteId, request_body: this.requestBody,
      response_body: this.responseBody, created_at: this.createdAt, seq: this.seq,
    };
  }
  /**
   * The published form. Its id, path, time and bodies are getters, made only if a listener reads
   * them (`serve --log pretty` past its lines a second reads none); JSON.stringify reads them all.
   */
  json(): RequestLogJson {
    const self = this;
    return {
      get request_id() {
        return self.requestId;
      },
      method: this.r.method,
      get path() {
        return self.path;
      },
      status: this.r.status,
      duration_ms: this.durationMs(),
      site_id: this.siteId,
      get request_body() {
        return self.requestBody;
      },
      get response_body() {
        return self.responseBody;
      },
      get created_at() {
        return self.createdAt;
      },
    };
  }
  private durationMs(): number {
    return Math.round(this.r.durationMs * 1000) / 1000;
  }
}
