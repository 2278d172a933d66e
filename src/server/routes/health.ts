import type { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { route } from '../http.js';

/**
 * `GET /_vtr/health`: 200 `{"status":"ok"}`, or 503 `{"status":"degraded", reason, ...}` while
 * writes fail for lack of space or permission (reads still work meanwhile).
 */
export function healthOf(deps: Pick<AppDeps, 'state' | 'config' | 'requestLog'>): { status: 200 | 503; body: Record<string, unknown> } {
  const dropped = deps.requestLog?.dropped() ?? 0;
  const extra = dropped > 0 ? { request_log_dropped: dropped } : {};
  const fault = deps.state?.storageFault() ?? null;
  if (!fault) return { status: 200, body: { status: 'ok', version: deps.config.version, ...extra } };
  const { error } = fault;
  return {
    status: 503,
    body: {
      status: 'degraded',
      version: deps.config.version,
      code: error.code,
      reason: error.message,
      db: fault.file,
      since: new Date(fault.since).toISOString(),
      failed_writes: fault.failures,
      ...extra,
    },
  };
}

/** Why writes fail now, or null while they work. */
export function degradedReason(deps: Pick<AppDeps, 'state'>): string | null {
  return deps.state?.storageFault()?.error.message ?? null;
}

export function healthRoutes(app: Hono, deps: AppDeps): void {
  route(app, '/_vtr/health', {
    GET: (c) => {
      const { status, body } = healthOf(deps);
      return c.json(body, status);
    },
  });
}
