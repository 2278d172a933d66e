// Each console page's live updates, called by the page's one-line inline script with its data
// (e.g. `vtrPage.sessions({"where":"","site":""})`). The server decides what a row shows; these
// only say which events concern the page and which row or section to fetch again.
import { logsLive } from './console-logs.js';

const CONSOLE = '/_vtr/console';
const enc = encodeURIComponent;

interface Ids {
  id?: string;
  check_id?: string;
  session_id?: string;
  webhook_id?: string;
  webhook_event_id?: string;
}

type Data = (Ids & Record<string, unknown>) | null;
type Own = (d: Ids & Record<string, unknown>) => boolean;

/**
 * The page's own object deleted elsewhere: `deleted` (told by `own`), its site deleted, or a state
 * import. The notice `noticeId` is shown and announced, and the page's posting forms are turned off
 * (sending them could only fail); what is typed stays. The page answering 404 is what "deleted"
 * means here, so an event that did not remove it changes nothing.
 */
function goneOn(noticeId: string, deleted: string, own: Own, site: string): (type: string, d: Data) => void {
  return (type, d) => {
    if (type === deleted && !(d && own(d))) return;
    if (type === 'site.deleted' && d?.site_id !== site) return;
    fetch(location.href, { headers: { accept: 'text/html' } }).then((r) => {
      const gone = document.getElementById(noticeId);
      if (r.status !== 404 || !gone || !gone.hidden) return;
      gone.hidden = false;
      document.querySelectorAll<HTMLButtonElement>('main form[method="post"] button[type="submit"]').forEach((b) => { b.disabled = true; });
      window.vtrAnnounce(gone.getAttribute('data-announce') ?? '');
    }).catch(() => {});
  };
}

function goneLive(noticeId: string, deleted: string, own: Own, site: string): void {
  window.vtrLive([deleted, 'site.deleted', 'state.replaced'], goneOn(noticeId, deleted, own, site));
}

/** Whether the user changed a field of `region` from what the page gave, or it is a refused form shown with what was typed. */
function typedIn(region: Element): boolean {
  if (region.querySelector('#form-error')) return true;
  return Array.from(region.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')).some((el) => {
    if (el instanceof HTMLSelectElement) {
      const given = Array.from(el.options).findIndex((o) => o.defaultSelected);
      return el.selectedIndex !== Math.max(given, 0);
    }
    return el.type === 'checkbox' ? el.checked !== el.defaultChecked : el.value !== el.defaultValue;
  });
}

/**
 * An edit page (a saved view, a rule) whose object was deleted or changed elsewhere. Deleted: as
 * goneLive. Changed (`updated`, or a state import): when nothing is typed, `region` (heading,
 * notices, form) takes the new values and its `data-followed` is said; else what is typed stays and the
 * notice `changedId` is shown and said. The form's version field tells a real change, and is what
 * makes the server refuse a stale save, so it is only renewed with the values.
 */
function editLive(o: { gone: string; changed: string; region: string; deleted: string; updated: string; own: Own; site: string }): void {
  const gone = goneOn(o.gone, o.deleted, o.own, o.site);
  const version = (el: Element) => el.querySelector<HTMLInputElement>('input[name="version"]')?.value;
  window.vtrLive([o.deleted, o.updated, 'site.deleted', 'state.replaced'], (type, d: Data) => {
    gone(type, d);
    if (type !== o.updated && type !== 'state.replaced') return;
    if (type === o.updated && !(d && o.own(d))) return;
    window.vtrRefresh(o.region, (old, fresh) => {
      if (version(old) === version(fresh)) return false;
      const notice = document.getElementById(o.changed);
      if (!typedIn(old)) {
        window.vtrAnnounce(fresh.getAttribute('data-followed') ?? '');
        return true;
      }
      if (notice && notice.hidden) {
        notice.hidden = false;
        window.vtrAnnounce(notice.getAttribute('data-announce') ?? '');
      }
      return false;
    });
  });
}

/**
 * A state reset or import, or a site deleted with what it held: the open list (`id`: rows and
 * pager) is the page's again, said once rather than as a new row each.
 */
function listReplaced(type: string, id: string): boolean {
  if (type !== 'state.replaced' && type !== 'site.deleted') return false;
  window.vtrRefresh(id, (_old, fresh) => {
    fresh.querySelectorAll('[data-announce]').forEach((r) => { r.removeAttribute('data-announce'); });
    window.vtrAnnounce(type === 'state.replaced' ? 'The emulator\'s state was replaced: the list shows it now' : 'A site was deleted: the list shows what is left');
    return true;
  });
  return true;
}

export const pages = {
  checks(site: string): void {
    window.vtrLive(['check.created', 'state.replaced', 'site.deleted'], (type, d: Ids) => {
      if (listReplaced(type, 'check-list')) return;
      const id = d.id || d.check_id;
      if (!id) return;
      window.vtrRow(`${CONSOLE}/checks/${enc(id)}/row?site=${enc(site)}`, 'check-' + id, 'rows');
    });
  },

  // The server decides whether a session matches the filter. Unfiltered, a change only refreshes a
  // shown row; under a filter, a changed session may match for the first time and is added.
  sessions(q: { where: string; site: string }): void {
    window.vtrLive(['session.created', 'session.updated', 'state.replaced', 'site.deleted'], (type, s: Ids) => {
      if (listReplaced(type, 'session-list')) return;
      const id = s.session_id ?? '';
      const url = `${CONSOLE}/sessions/${enc(id)}/row?where=${enc(q.where)}&site=${enc(q.site)}`;
      window.vtrRow(url, 'row-' + id, 'rows', { onlyReplace: type === 'session.updated' && !q.where });
    });
  },

  sessionDetail(s: { id: string; site: string }): void {
    window.vtrLive(['session.updated', 'check.created', 'webhook_event.'], (_type, d: Ids | null) => {
      if (d && d.session_id === s.id) window.vtrRefresh('session-body');
    });
    // No event names one session going: a state reset or import, or its site deleted, takes it.
    goneLive('session-gone', 'state.replaced', () => true, s.site);
  },

  // Attempts and state changes re-render the live part; the button says so while a retry runs.
  webhookEvent(id: string): void {
    window.vtrLive(['webhook_attempt.created', 'webhook_event.updated'], (_type, d: Ids | null) => {
      if (d && d.webhook_event_id === id) window.vtrRefresh('event-live');
    });
    document.addEventListener('submit', (ev) => {
      if ((ev.target as HTMLElement).id !== 'retry-form' || ev.defaultPrevented) return;
      const b = document.getElementById('retry') as HTMLButtonElement;
      setTimeout(() => { b.disabled = true; b.textContent = 'Retrying…'; }, 0);
    });
  },

  // Rows come from the server (the status filter applies); without a filter an update only replaces.
  webhookEvents(q: { id: string; status: string }): void {
    window.vtrLive(['webhook_event.', 'webhook.updated'], (type, d: Ids | null) => {
      if (!d || d.webhook_id !== q.id) return;
      if (type === 'webhook.updated') { window.vtrRefresh('webhook-summary'); return; }
      const eventId = d.webhook_event_id ?? '';
      const url = `${CONSOLE}/webhooks/${enc(q.id)}/rows/${enc(eventId)}?status=${enc(q.status)}`;
      window.vtrRow(url, 'ev-' + eventId, 'rows', { onlyReplace: type !== 'webhook_event.created' && !q.status });
    });
  },

  // A webhook made or deleted elsewhere (the CLI, the API, another tab) and a site's plan or name
  // changing show on the open list, as a failure run growing does; sites, in the form's choices too.
  webhooks(): void {
    window.vtrLive(['webhook.', 'site.'], (type) => {
      window.vtrRefresh('webhook-lists');
      if (type.indexOf('site.') === 0) window.vtrSiteChoices('hook-site');
    });
  },

  // A view made, changed or deleted elsewhere (the CLI, the API, another tab), or a site's: the lists
  // follow it; the new-view form, outside them, keeps what is typed, its site choices following.
  views(): void {
    window.vtrLive(['saved_view.', 'site.'], (type) => {
      window.vtrRefresh('view-lists');
      if (type.indexOf('site.') === 0) window.vtrSiteChoices('view-site');
    });
  },

  // The open view deleted or changed elsewhere (the CLI, the API, another tab, with its site, or by a
  // state import): its page says so, or shows the change, at once rather than when the form is sent.
  view(v: { id: string; site: string }): void {
    editLive({ gone: 'view-gone', changed: 'view-changed', region: 'view-edit', deleted: 'saved_view.deleted', updated: 'saved_view.updated', own: (d) => d.saved_view_id === v.id, site: v.site });
  },

  // The open webhook deleted elsewhere, as the view page: its buttons could only fail.
  webhook(w: { id: string; site: string }): void {
    goneLive('webhook-gone', 'webhook.deleted', (d) => d.webhook_id === w.id, w.site);
  },

  // The open rule deleted or changed elsewhere, as the view page. Rule ids are a site's own (the
  // smart rules' ids are the same on every site), so the site tells it too.
  rule(r: { id: string; site: string }): void {
    editLive({ gone: 'rule-gone', changed: 'rule-changed', region: 'rule-edit', deleted: 'rule.deleted', updated: 'rule.updated', own: (d) => d.rule_id === r.id && d.site_id === r.site, site: r.site });
  },

  // A site made or deleted elsewhere (the CLI, the API, another tab) changes the cards; a change or
  // new keys, only its own card, so old keys that no longer work are not left on the page.
  sites(): void {
    window.vtrLive(['site.'], (type, d: { site_id?: string } | null) => {
      window.vtrRefresh(type === 'site.updated' && d && d.site_id ? 'site-card-' + d.site_id : 'site-cards');
    });
  },

  // A token made or revoked elsewhere (the CLI, the API, another tab), or a site's: the lists follow
  // it; the new-token form, outside them, keeps its pick, its site choices following.
  tokens(): void {
    window.vtrLive(['access_token.', 'site.'], (type) => {
      window.vtrRefresh('token-lists');
      if (type.indexOf('site.') === 0) window.vtrSiteChoices('token-site');
    });
  },

  // A rule made, changed or deleted elsewhere (the CLI, the API, another tab): the open site's list
  // follows it; the new-rule form, outside the list, keeps what is typed. A site made, renamed or
  // deleted elsewhere: the site links follow it (and the list, when it is the open site).
  rules(site: string): void {
    window.vtrLive(['rule.', 'site.'], (type, d: { site_id?: string } | null) => {
      if (type.indexOf('site.') === 0) window.vtrRefresh('rule-sites');
      if (d && d.site_id === site) window.vtrRefresh('rule-list');
    });
  },

  // A state reset or import replaces the mail as well.
  outbox(): void {
    window.vtrLive(['notification.', 'state.replaced'], () => { window.vtrRefresh('outbox'); });
  },

  logs: logsLive,
};

export type ConsolePages = typeof pages;
