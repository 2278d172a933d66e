// The client's errors: the server's own ({code, message}), or no answer from it (ConnectionError).
import { AnswerTimeout } from './http.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export class ConnectionError extends Error {
  /** Set when the server took the request but did not answer within the client's timeout. */
  readonly timeoutMs: number | null;
  /** The server took the request, then closed the connection before its whole answer (stopped, killed). */
  readonly cutOff: boolean;
  /**
   * `detail`: why, when it is worth showing (an in-process emulator that was closed): the message
   * then, as no connection was made (`listen: false` has no port to name). `write`: the
   * request changes state, so a cut-off one may or may not have been carried out.
   */
  constructor(readonly url: string, readonly cause?: unknown, detail?: string, readonly write = false) {
    const timeoutMs = cause instanceof AnswerTimeout ? cause.timeoutMs : null;
    const code = (cause as { code?: unknown } | null)?.code;
    const cutOff = timeoutMs === null && !detail && (code === 'ECONNRESET' || code === 'ECONNABORTED' || (cause instanceof Error && cause.message === 'aborted'));
    super(timeoutMs !== null
      ? `the emulator at ${url} did not answer within ${timeoutMs / 1000} s`
      : cutOff
        ? `the emulator at ${url} closed the connection without answering${write ? ': whether the request was carried out is unknown' : ''}`
        : detail ?? `cannot reach the emulator at ${url}`);
    this.name = 'ConnectionError';
    this.timeoutMs = timeoutMs;
    this.cutOff = cutOff;
  }
}
