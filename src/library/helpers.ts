// Typed helpers for what tests do most, over the emulator's own API (answered in-process: the same
// pipeline as HTTP, without a socket). Bodies and answers are the API's JSON, snake_case as in the
// contract; the helpers' own options (waitFor's, the filters) are camelCase.
import { ApiError, ConnectionError, type ApiClient } from '../client/api-client.js';
import { shownId } from '../domain/errors.js';
import type { CheckInput, CheckResult, EventStatus, Rule, RuleInput, RuleUpdate, SavedView, Session, SessionInput, ViewInput, Webhook, WebhookEvent } from './api-types.js';
import { realTimers } from '../domain/timers.js';
import { suggest } from '../domain/filter/suggest.js';
import { WaitForTimeoutError } from './wait-timeout.js';
import { checkIds, checkStatus, extraArg, fieldsArg, filterArg, got, idArg, isPlain, plainObjectHint } from './arguments.js';

export interface WebhookEventFilter {
  webhookId?: string | undefined;
  sessionId?: string | undefined;
  status?: EventStatus | undefined;
}

export interface WaitForOptions {
  sessionId?: string | undefined;
  webhookId?: string | undefined;
  /** Default `delivered`. */
  status?: EventStatus | undefined;
  /** Default 5000; a finite number, 0 or more (a wait must end). */
  timeoutMs?: number | undefined;
}

/** A page of a webhook's events; the API's most at once is 10,000. */
const PAGE = 1000;
/** The most events waitFor's rejection lists. */
const SHOWN = 20;
/**
 * Calls `listener` with each webhook event as it is at each change (created, a new status, an
 * attempt), and with null for any other change a reader may want to look again after (state
 * replaced, the emulator closing). Returns the unsubscribe.
 */
export type WatchWebhookEvents = (listener: (event: WebhookEvent | null) => void) => () => void;

/**
 * The API's error, its message after the helper's name ("views.create: name: must not be empty"): the
 * same ApiError otherwise. So is the client's refusal once the emulator is closed (the helpers' client
 * never leaves the process, so that is its only ConnectionError): the same ConnectionError.
 */
function named(helper: string) {
  return (err: unknown): never => {
    if ((err instanceof ApiError || err instanceof ConnectionError) && err.message.startsWith(`${helper}: `)) throw err;
    if (err instanceof ApiError) throw new ApiError(err.status, err.code, `${helper}: ${err.message}`, err.body);
    if (err instanceof ConnectionError) throw new ConnectionError(err.url, err.cause, `${helper}: ${err.message}`, err.write);
    throw err;
  };
}

/** `frozen`: whether the emulator's clock is frozen (its retries run only when a test moves it). */
export function createHelpers(client: ApiClient, siteId: () => string, watch: WatchWebhookEvents, frozen: () => boolean) {
  const site = () => encodeURIComponent(siteId());
  const id = (s: string) => encodeURIComponent(s);

  /** All of a webhook's events, newest first, page after page. */
  async function webhookEvents(webhookId: string, status: EventStatus | undefined): Promise<WebhookEvent[]> {
    const all: WebhookEvent[] = [];
    for (let before: string | undefined; ; ) {
      const page = await client.admin<WebhookEvent[]>('GET', `/webhooks/${id(webhookId)}/events`, { query: { status, limit: PAGE, before } });
      all.push(...page);
      if (page.length < PAGE) return all;
      before = page[page.length - 1].webhook_event_id;
    }
  }

  async function events(given?: WebhookEventFilter, ...rest: []): Promise<WebhookEvent[]> {
    const extra = extraArg('webhooks.events', rest);
    if (extra) throw extra;
    const filter = filterArg('webhooks.events', 'a filter', ['sessionId', 'webhookId', 'status'], given, ['timeoutMs']);
    checkStatus('webhooks.events', filter.status);
    checkIds('webhooks.events', filter);
    return readEvents(filter).catch(namedNotFound('webhooks.events', filter, ''));
  }

  /**
   * The API's 404 for the session or webhook asked for says neither the helper nor the id ("session
   * not found"): the same ApiError, saying both.
   */
  function namedNotFound(helper: string, o: { sessionId?: string; webhookId?: string }, then: string) {
    return (err: unknown): never => {
      if (err instanceof ApiError && err.status === 404 && (o.sessionId || o.webhookId)) {
        const what = o.sessionId ? `session ${shownId(o.sessionId)}` : `webhook ${shownId(o.webhookId!)}`;
        throw new ApiError(err.status, err.code, `${helper}: ${what} not found${then}`, err.body);
      }
      return named(helper)(err);
    };
  }

  async function readEvents(filter: WebhookEventFilter): Promise<WebhookEvent[]> {
    let list: WebhookEvent[];
    // A session sets off one event per view and webhook: its route's one page (10,000) holds them all.
    if (filter.sessionId) list = await client.admin<WebhookEvent[]>('GET', `/sessions/${id(filter.sessionId)}/webhook-events`, { query: { limit: 10_000 } });
    else {
      const hooks = filter.webhookId ? [{ webhook_id: filter.webhookId }] : await client.admin<Webhook[]>('GET', `/sites/${site()}/webhooks`);
      list = (await Promise.all(hooks.map((w) => webhookEvents(w.webhook_id, filter.status)))).flat();
    }
    return list.filter((e) => (!filter.webhookId || e.webhook_id === filter.webhookId) && (!filter.status || e.status === filter.status));
  }

  return {
    sessions: {
      create: async (input: SessionInput = {}) => {
        fieldsArg('sessions.create', "the session's fields ({ ip, user_agent, ... })", input, (v) => `ip: ${JSON.stringify(v)}`);
        return client.admin<Session>('POST', `/sites/${site()}/sessions`, { body: input }).catch(named('sessions.create'));
      },
      /** `GET /api/v1/session/{id}`, with the site's access token. */
      get: async (sessionId: string) =>
        client.api<Session>('GET', `/session/${id(idArg('sessions.get', 'sessionId', 'session', sessionId))}`).catch(namedNotFound('sessions.get', { sessionId }, '')),
      /** Newest first; `where` in the saved-view filter language. */
      list: (filter?: string | { where?: string | undefined; limit?: number | undefined }, ...rest: []) => {
        const given: unknown = filter;
        const extra = extraArg('sessions.list', rest, (v) => (typeof v !== 'number' ? '' : typeof given === 'string' ? `: pass { where: ${JSON.stringify(given)}, limit: ${v} }` : ': pass it as limit'));
        if (extra) return Promise.reject(extra);
        // A Map's entries, a class's getters: no option would be read, so every session.
        if (given !== undefined && given !== null && typeof given !== 'string' && !isPlain(given)) {
          return Promise.reject(new TypeError(`sessions.list: expected a filter string or { where, limit }, got ${got(given)}${plainObjectHint(given)}`));
        }
        const f = typeof filter === 'string' ? { where: filter } : (filter ?? {});
        // From JavaScript, a misspelt option (or { filter }, as saved views name it) would be ignored: every session.
        const unknown = Object.keys(f).find((k) => k !== 'where' && k !== 'limit' && (f as Record<string, unknown>)[k] !== undefined);
        if (unknown === 'filter') return Promise.reject(new TypeError('sessions.list: unknown option "filter"; it takes { where, limit } (the filter goes in where)'));
        if (unknown !== undefined) {
          const meant = ['where', 'limit'].find((k) => k === unknown.toLowerCase()) ?? suggest(unknown, ['where', 'limit']);
          return Promise.reject(new TypeError(`sessions.list: unknown option ${JSON.stringify(unknown)}${meant ? ` (did you mean ${meant}?)` : ''}; it takes { where, limit }`));
        }
        // The client would send an object as "[object Object]", a filter the API cannot read, and
        // leave null out: every session. Undefined is no filter, as the key left out.
        if (f.where !== undefined && typeof f.where !== 'string') {
          return Promise.reject(new TypeError(`sessions.list: where: expected a filter string (e.g. "risk_level = invalid"), got ${got(f.where)}`));
        }
        // The client leaves an empty value out, which would list every session.
        if (typeof f.where === 'string' && f.where.trim() === '') return Promise.reject(new TypeError(`sessions.list: where: expected a filter, got ${JSON.stringify(f.where)} (leave it out for every session)`));
        // The client leaves null out too: the default page, not the null the caller wrote.
        if (f.limit === null) return Promise.reject(new TypeError('sessions.list: limit: expected a whole number from 1 to 10000, got null (leave it out for the default)'));
        // A string ('5', read from the environment) would be sent and taken as a number: refused as the other options' wrong types are.
        if (f.limit !== undefined && typeof f.limit !== 'number') {
          return Promise.reject(new TypeError(`sessions.list: limit: expected a whole number from 1 to 10000, got ${got(f.limit)}${typeof f.limit === 'string' ? ' (a string: use Number(...))' : ''}`));
        }
        return client.admin<Session[]>('GET', '/sessions', { query: { site: siteId(), where: f.where, limit: f.limit } }).catch(named('sessions.list'));
      },
    },
    events: {
      /** `POST /api/v1/session/{id}/event`. */
      add: async (sessionId: string, name: string): Promise<void> => {
        await client.api('POST', `/session/${id(idArg('events.add', 'sessionId', 'session', sessionId))}/event`, { body: { name } }).catch(namedNotFound('events.add', { sessionId }, ''));
      },
    },
    /** A visitor check with the site's secret key. */
    check: async (input: CheckInput = {}) => {
      fieldsArg('check', "the check's fields ({ ip, email, ... })", input, (v) => `${v.includes('@') ? 'email' : 'ip'}: ${JSON.stringify(v)}`);
      return client.check<CheckResult>({ ...input }).catch(named('check'));
    },
    views: {
      // Left out or undefined (an optional parameter passed on) alike: true.
      // Left out (from JavaScript): the API's 400 naming name, rejected as every helper's failures are.
      create: async (input: ViewInput) => {
        fieldsArg('views.create', "the view's fields ({ name, filter, trigger_webhooks? })", input, (v) => `name: ..., filter: ${JSON.stringify(v)}`);
        return client.admin<SavedView>('POST', `/sites/${site()}/views`, { body: { ...input, trigger_webhooks: input?.trigger_webhooks ?? true } }).catch(named('views.create'));
      },
    },
    rules: {
      /** The site's rules in evaluation order: the allowlist, the smart rules, custom rules. */
      list: (...given: []) => {
        // From JavaScript, a filter or a limit (as sessions.list takes) would be ignored: every rule.
        const extra = (given as unknown[]).find((v) => v !== undefined);
        if (extra !== undefined) return Promise.reject(new TypeError(`rules.list: takes no arguments, got ${got(extra)}`));
        return client.admin<Rule[]>('GET', `/sites/${site()}/rules`).catch(named('rules.list'));
      },
      create: async (input: RuleInput) => {
        fieldsArg('rules.create', "the rule's fields ({ filter, action, name?, enabled? })", input, (v) => `filter: ${JSON.stringify(v)}, action: ...`);
        return client.admin<Rule>('POST', `/sites/${site()}/rules`, { body: input }).catch(named('rules.create'));
      },
      update: async (ruleId: string, input: RuleUpdate) => {
        // A Map would go as {} (no change, answered 200); a bare action as a string the API refuses.
        fieldsArg('rules.update', 'the fields to change ({ action?, enabled?, threshold?, name?, filter? })', input, (v) => `action: ${JSON.stringify(v)}`);
        return client.admin<Rule>('PATCH', `/sites/${site()}/rules/${id(idArg('rules.update', 'ruleId', 'rule', ruleId))}`, { body: input }).catch(named('rules.update'));
      },
    },
    webhooks: {
      /** The URL (a string or a URL object), or `{ url }` as the other create helpers take their input: the API's body (a URL object in it goes as its href). */
      create: async (url: string | URL | { url: string | URL }) => {
        // A URL object would go as its JSON, a bare string: not the object the API takes.
        if (typeof url === 'object' && !(url instanceof URL)) fieldsArg('webhooks.create', 'a URL (a string or URL) or { url }', url);
        const body = url instanceof URL ? { url: url.href } : typeof url === 'object' && url !== null ? url : { url };
        return client.admin<Webhook>('POST', `/sites/${site()}/webhooks`, { body }).catch(named('webhooks.create'));
      },
      events,
      /**
       * Resolves with the first webhook event that reaches `status` (default `delivered`): one in it
       * now as read, or one that passed through it since the call, as it was then; rejects after
       * `timeoutMs` naming what it saw.
       */
      async waitFor(given?: WaitForOptions, ...rest: []): Promise<WebhookEvent> {
        const extra = extraArg('webhooks.waitFor', rest, (v) => (typeof v === 'number' ? ': pass it as timeoutMs' : ''));
        if (extra) throw extra;
        const o = filterArg('webhooks.waitFor', 'options', ['sessionId', 'webhookId', 'status', 'timeoutMs'], given);
        checkStatus('webhooks.waitFor', o.status);
        checkIds('webhooks.waitFor', o);
        // A string, NaN or Infinity would never pass the deadline: the wait would never end.
        if (o.timeoutMs !== undefined && !(typeof o.timeoutMs === 'number' && Number.isFinite(o.timeoutMs) && o.timeoutMs >= 0)) {
          throw new TypeError(`webhooks.waitFor: timeoutMs: expected a finite number of milliseconds (0 or more), got ${typeof o.timeoutMs === 'string' ? JSON.stringify(o.timeoutMs) : String(o.timeoutMs)}`);
        }
        const gone = namedNotFound('webhooks.waitFor', o, ', so no webhook event can come for it');
        const status = o.status ?? 'delivered';
        const timeoutMs = o.timeoutMs ?? 5000;
        const deadline = realTimers.now() + timeoutMs;
        const scoped = (e: WebhookEvent) =>
          (!o.sessionId || e.session_id === o.sessionId) && (!o.webhookId || e.webhook_id === o.webhookId) && (!!o.sessionId || !!o.webhookId || e.site_id === siteId());
        // Each event that reached the status since the call, as it was then: a status held for less
        // than a read (a retry that is delivered at once) is seen too. First come first.
        const passed = new Map<string, WebhookEvent>();
        let wake: (() => void) | null = null;
        // Subscribed before the first read: no change falls between the two.
        // Woken only by what may end the wait (not by every change of a busy emulator).
        const unwatch = watch((e) => {
          if (e && !(e.status === status && scoped(e))) return;
          if (e && !passed.has(e.webhook_event_id)) passed.set(e.webhook_event_id, structuredClone(e)); // its own copy: the bus's is shared
          wake?.();
        });
        try {
          for (;;) {
            // In the status now, as read (only those: a webhook may have thousands); else the first that passed through it.
            const hit = (await readEvents({ sessionId: o.sessionId, webhookId: o.webhookId, status }).catch(gone))[0] ?? passed.values().next().value;
            if (hit) return hit;
            const left = deadline - realTimers.now();
            if (left <= 0) break;
            // Until a change, or the next look (another process on the same database file publishes nothing here).
            await new Promise<void>((resolve) => {
              const timer = realTimers.setTimeout(() => resolve(), Math.min(20, left));
              wake = () => {
                realTimers.clearTimeout(timer);
                resolve();
              };
            });
            wake = null;
          }
        } finally {
          unwatch();
        }
        const seen = await readEvents({ sessionId: o.sessionId, webhookId: o.webhookId }).catch(gone);
        const late = seen.find((e) => e.status === status); // reached it since the last look
        if (late) return late;
        const next = (e: WebhookEvent) => (e.next_attempt_at ? `, next at ${e.next_attempt_at}` : '');
        // The newest few: a webhook's thousands would bury the message.
        const more = seen.length > SHOWN ? `, and ${seen.length - SHOWN} more` : '';
        const what = seen.length
          ? seen.slice(0, SHOWN).map((e) => `${e.webhook_event_id} ${e.status} (${e.attempts.length} attempt${e.attempts.length === 1 ? '' : 's'}${next(e)})`).join(', ') + more
          : 'no webhook event at all';
        const scope = [o.sessionId && `session ${o.sessionId}`, o.webhookId && `webhook ${o.webhookId}`].filter(Boolean).join(', ');
        // A frozen clock runs no retry by itself, however long the wait: say what moves it.
        const hint = frozen() && seen.some((e) => e.status === 'retrying') ? '; the clock is frozen: a retry runs when emu.clock.advance() or emu.clock.set() reaches its time' : '';
        throw new WaitForTimeoutError(`webhooks.waitFor: no webhook event${scope ? ` for ${scope}` : ''} reached ${status} within ${timeoutMs} ms; saw: ${what}${hint}`, seen);
      },
    },
  };
}

export type Helpers = ReturnType<typeof createHelpers>;
