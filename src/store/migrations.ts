// Versioned schema. Each entry moves the database from version i to i+1 (PRAGMA user_version).
// Never edit a released migration; append a new one.
import { CURRENT_ZONE_NAMES } from '../domain/locale.js';

const sqlText = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** Old tz names of sessions to the current ones (migration 5; also run on an imported state export). */
export const CURRENT_ZONE_NAMES_SQL = `
  UPDATE sessions SET timezone = CASE timezone
    ${Object.entries(CURRENT_ZONE_NAMES).map(([old, now]) => `WHEN ${sqlText(old)} THEN ${sqlText(now)}`).join('\n    ')}
  END
  WHERE timezone IN (${Object.keys(CURRENT_ZONE_NAMES).map(sqlText).join(', ')});
`;

/**
 * Gives rules without a place in their order (`seq` null) one after every other rule's, in the
 * order of their created_at (migration 6; also run on an imported state export from before it).
 */
export const RULE_SEQ_SQL = `
  UPDATE rules SET seq = numbered.n
  FROM (
    SELECT rowid AS id, (SELECT coalesce(max(seq), 0) FROM rules) + row_number() OVER (ORDER BY created_at, rowid) AS n
    FROM rules WHERE seq IS NULL
  ) AS numbered
  WHERE rules.rowid = numbered.id;
`;

export const MIGRATIONS: string[] = [
  /* 1 */ `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE sites (
    site_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    country TEXT,
    owner_email TEXT,
    site_key TEXT NOT NULL UNIQUE,
    secret_key TEXT NOT NULL UNIQUE,
    conversion_events TEXT NOT NULL,
    bounce_seconds INTEGER NOT NULL,
    excluded_countries TEXT NOT NULL,
    ip_allowlist TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );

  CREATE TABLE access_tokens (
    token TEXT PRIMARY KEY,
    site_id TEXT NOT NULL REFERENCES sites(site_id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX access_tokens_site ON access_tokens(site_id);

  CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    site_id TEXT NOT NULL REFERENCES sites(site_id) ON DELETE CASCADE,
    site_name TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    duration INTEGER,
    page_views INTEGER,
    entry_hostname TEXT, entry_path TEXT, exit_hostname TEXT, exit_path TEXT,
    fingerprint TEXT,
    returned INTEGER,
    risk_level TEXT,
    engagement_level TEXT,
    risks TEXT NOT NULL DEFAULT '[]',
    actions TEXT NOT NULL DEFAULT '[]',
    custom_events TEXT NOT NULL DEFAULT '[]',
    value REAL,
    channel TEXT, source TEXT, source_subtype TEXT, source_id TEXT, source_medium TEXT,
    source_campaign TEXT, source_group TEXT, source_content TEXT, source_term TEXT,
    source_session_id TEXT,
    referrer TEXT, referrer_domain TEXT,
    ip TEXT, ip_network TEXT, isp TEXT, country_code TEXT, city TEXT,
    device_type TEXT, browser_name TEXT, browser_family TEXT, browser_version TEXT,
    os_family TEXT, os_version TEXT,
    language TEXT, timezone TEXT, user_agent TEXT,
    -- internal bookkeeping, never returned by the API
    first_seen_us INTEGER NOT NULL,
    last_seen_us INTEGER NOT NULL,
    click_id TEXT,
    check_risks TEXT NOT NULL DEFAULT '[]',
    seq INTEGER NOT NULL
  );
  CREATE INDEX sessions_site_seq ON sessions(site_id, seq);
  CREATE INDEX sessions_site_fp ON sessions(site_id, fingerprint, last_seen_us);
  CREATE INDEX sessions_seq ON sessions(seq);

  CREATE TABLE probes (
    probe_id TEXT PRIMARY KEY,
    site_id TEXT NOT NULL REFERENCES sites(site_id) ON DELETE CASCADE,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    ip TEXT,
    created_at TEXT NOT NULL,
    created_us INTEGER NOT NULL
  );
  CREATE INDEX probes_session ON probes(session_id);

  CREATE TABLE checks (
    check_id TEXT PRIMARY KEY,
    site_id TEXT NOT NULL REFERENCES sites(site_id) ON DELETE CASCADE,
    session_id TEXT,
    risk_level TEXT NOT NULL,
    created_at TEXT NOT NULL,
    result TEXT NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE INDEX checks_site_seq ON checks(site_id, seq);
  CREATE INDEX checks_session ON checks(session_id);

  CREATE TABLE saved_views (
    saved_view_id TEXT PRIMARY KEY,
    site_id TEXT NOT NULL REFERENCES sites(site_id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    filter TEXT NOT NULL,
    trigger_webhooks INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX saved_views_site ON saved_views(site_id);

  -- A session matches a view once: the first match triggers, later ones do not.
  CREATE TABLE view_matches (
    saved_view_id TEXT NOT NULL REFERENCES saved_views(saved_view_id) ON DELETE CASCADE,
    session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    matched_at TEXT NOT NULL,
    PRIMARY KEY (saved_view_id, session_id)
  );

  CREATE TABLE webhooks (
    webhook_id TEXT PRIMARY KEY,
    site_id TEXT NOT NULL REFERENCES sites(site_id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    status TEXT NOT NULL,
    secret TEXT NOT NULL,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    failure_run_started_us INTEGER,
    created_at TEXT NOT NULL
  );
  CREATE INDEX webhooks_site ON webhooks(site_id);

  CREATE TABLE webhook_events (
    webhook_event_id TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks(webhook_id) ON DELETE CASCADE,
    saved_view_id TEXT NOT NULL,
    saved_view_name TEXT NOT NULL,
    session_id TEXT NOT NULL,
    site_id TEXT NOT NULL,
    status TEXT NOT NULL,
    auto_retries_remaining INTEGER NOT NULL,
    next_attempt_us INTEGER,
    created_us INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    triggered_at TEXT NOT NULL,
    payload TEXT NOT NULL
  );
  CREATE INDEX webhook_events_due ON webhook_events(next_attempt_us) WHERE next_attempt_us IS NOT NULL;
  CREATE INDEX webhook_events_webhook ON webhook_events(webhook_id, created_us);
  CREATE INDEX webhook_events_session ON webhook_events(session_id);

  CREATE TABLE webhook_attempts (
    webhook_event_id TEXT NOT NULL REFERENCES webhook_events(webhook_event_id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    trigger TEXT NOT NULL,
    at TEXT NOT NULL,
    status_code INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (webhook_event_id, attempt)
  );

  CREATE TABLE notifications (
    notification_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    site_id TEXT NOT NULL,
    webhook_id TEXT,
    webhook_event_id TEXT,
    "to" TEXT,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    sent_at TEXT,
    send_error TEXT,
    seq INTEGER NOT NULL
  );

  CREATE TABLE request_log (
    request_id TEXT PRIMARY KEY,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    site_id TEXT,
    request_body TEXT,
    response_body TEXT,
    created_at TEXT NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE INDEX request_log_seq ON request_log(seq);
  `,
  /* 2 */ // which process is delivering a webhook event right now, so that several `vtr serve` on one
  // file do not send the same attempt twice. Not state (never exported): a claim lives for one attempt.
  `
  CREATE TABLE webhook_claims (
    webhook_event_id TEXT PRIMARY KEY REFERENCES webhook_events(webhook_event_id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
  );
  CREATE INDEX webhook_claims_owner ON webhook_claims(owner);
  `,
  /* 3 */ // rules: custom rules, and a site's changes to its smart rules (a smart rule without a row
  // has its defaults, so a site from before rules, or an imported file without them, gets those).
  // A check keeps its device and normalised email, indexed, so the device rules count without a scan.
  `
  CREATE TABLE rules (
    site_id TEXT NOT NULL REFERENCES sites(site_id) ON DELETE CASCADE,
    rule_id TEXT NOT NULL,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    filter TEXT,
    action TEXT NOT NULL,
    threshold INTEGER,
    enabled INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (site_id, rule_id)
  );
  ALTER TABLE checks ADD COLUMN fingerprint TEXT;
  ALTER TABLE checks ADD COLUMN email TEXT;
  CREATE INDEX checks_device ON checks(site_id, fingerprint, created_at) WHERE fingerprint IS NOT NULL;
  CREATE INDEX checks_device_email ON checks(site_id, fingerprint, email) WHERE fingerprint IS NOT NULL AND email IS NOT NULL;
  `,
  /* 4 */ // One index serves both device rules (a device's checks since a time; its distinct emails; one
  // email seen with it), its entries in time order within a device: a check with a device writes
  // one entry, next to the device's last one. Two indexes, one of them in email order, cost ~15 µs
  // of CPU per check at load (mostly the email-ordered one: each check dirtied another page).
  `
  DROP INDEX checks_device;
  DROP INDEX checks_device_email;
  CREATE INDEX checks_device ON checks(site_id, fingerprint, created_at, email) WHERE fingerprint IS NOT NULL;
  `,
  /* 5 */ // Sessions keep the current tz name (`Asia/Kolkata`), as sessions made from now on do; before,
  // they kept the old one Intl gave (`Asia/Calcutta`), and a filter on the current name missed them.
  // A name added to the map later needs a migration of its own: databases at 5 do not run this again.
  CURRENT_ZONE_NAMES_SQL,
  /* 6 */ // Rules keep the order they were created in (`seq`, one up from the last), which decides the
  // order they are evaluated and listed in: created_at follows the clock, and a manual or frozen clock
  // set ahead, then a system clock on the same file, would put a later rule first.
  `
  ALTER TABLE rules ADD COLUMN seq INTEGER;
  ${RULE_SEQ_SQL}
  `,
  /* 7 */ // A notification written while mail is sent (`vtr serve --smtp`) waits for its send
  // (send_pending 1) until the send succeeded or failed, so a start with --smtp after a crash sends
  // it. Rows from before are not waiting: whether one was ever to be mailed is not known, and old
  // mail must not flood an inbox. Which process is sending one right now: notification_claims (not
  // state, never exported), as for webhook attempts.
  `
  ALTER TABLE notifications ADD COLUMN send_pending INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX notifications_send_pending ON notifications(seq) WHERE send_pending = 1;
  CREATE TABLE notification_claims (
    notification_id TEXT PRIMARY KEY REFERENCES notifications(notification_id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
  );
  CREATE INDEX notification_claims_owner ON notification_claims(owner);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
