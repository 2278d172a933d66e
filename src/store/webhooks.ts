import type { Webhook, WebhookStatus } from '../domain/webhooks.js';
import type { Db } from './db.js';

/** A webhook with its failure-run bookkeeping (never returned by the API). */
export interface WebhookRecord extends Webhook {
  failure_run_started_us: number | null;
}

export function createWebhookStore(db: Db) {
  const cols = 'webhook_id, site_id, url, status, secret, consecutive_failures, failure_run_started_us, created_at';
  const insert = db.prepare(`INSERT INTO webhooks (${cols}) VALUES (${cols.split(', ').map((c) => `@${c}`).join(', ')})`);
  const byId = db.prepare<[string], WebhookRecord>('SELECT * FROM webhooks WHERE webhook_id = ?');
  const bySite = db.prepare<[string], WebhookRecord>('SELECT * FROM webhooks WHERE site_id = ? ORDER BY created_at, webhook_id');
  const enabledBySite = db.prepare<[string], WebhookRecord>(
    "SELECT * FROM webhooks WHERE site_id = ? AND status = 'enabled' ORDER BY created_at, webhook_id",
  );
  const all = db.prepare<[], WebhookRecord>('SELECT * FROM webhooks ORDER BY created_at, webhook_id');
  const setUrl = db.prepare('UPDATE webhooks SET url = ? WHERE webhook_id = ?');
  const setStatus = db.prepare('UPDATE webhooks SET status = ? WHERE webhook_id = ?');
  const setRun = db.prepare('UPDATE webhooks SET consecutive_failures = ?, failure_run_started_us = ? WHERE webhook_id = ?');
  const del = db.prepare('DELETE FROM webhooks WHERE webhook_id = ?');

  return {
    insert: (w: WebhookRecord) => void insert.run(w),
    get: (id: string): WebhookRecord | null => byId.get(id) ?? null,
    forSite: (siteId: string) => bySite.all(siteId),
    enabledForSite: (siteId: string) => enabledBySite.all(siteId),
    list: () => all.all(),
    setUrl: (id: string, url: string) => void setUrl.run(url, id),
    setStatus: (id: string, status: WebhookStatus) => void setStatus.run(status, id),
    setRun: (id: string, consecutiveFailures: number, runStartedUs: number | null) => void setRun.run(consecutiveFailures, runStartedUs, id),
    delete: (id: string) => del.run(id).changes > 0,
  };
}
export type WebhookStore = ReturnType<typeof createWebhookStore>;
