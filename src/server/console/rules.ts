// A site's rules: the allowlist, the smart rules and custom rules, in evaluation order. Smart rules
// are switched on and off and given an action (and a threshold) in place; custom rules are created,
// edited and deleted. A refused filter comes back with its caret, as on the views page.
import type { Context } from 'hono';
import { VtrError } from '../../domain/errors.js';
import { allowlistChangeRefused, MAX_THRESHOLD, RULE_ACTIONS, type Rule, type SmartRuleId } from '../../domain/rules.js';
import { wholeNumberOf } from '../../domain/whole-number.js';
import type { RuleService } from '../../rules/service.js';
import { RuleCreate, RuleUpdate } from '../../api/management/rules.js';
import { validate } from '../validate.js';
import { html, messageHtml, raw, scriptJson, type Html } from './html.js';
import { changedNotice, CONSOLE, flash, followedSaid, goneNotice, scrollTable } from './layout.js';
import { isStale, staleProblem, versionField } from './stale.js';
import { filterError } from './sessions.js';
import { filterField, filterSent, requiredSite, siteMissing } from './fields.js';
import { pick } from './webhook-fields.js';
import type { ConsoleRouter } from './router.js';

const rulesHref = (siteId: string) => `${CONSOLE}/rules?site=${encodeURIComponent(siteId)}`;
const ruleHref = (siteId: string, id: string) => `${CONSOLE}/rules/${encodeURIComponent(siteId)}/${encodeURIComponent(id)}`;
// The allowlist is the site's ip_allowlist, shown (and said how to change) in the site's settings.
const allowlistHref = (siteId: string) => `${CONSOLE}/sites?settings=${encodeURIComponent(siteId)}#site-card-${encodeURIComponent(siteId)}`;
const DONE: Record<string, string> = { created: 'Created the rule.', updated: 'Saved the rule.', deleted: 'Deleted the rule.' };

function actionSelect(id: string, current: string): Html {
  return html`<select id="${id}" name="action">${RULE_ACTIONS.map((a) => html`<option value="${a}"${a === current ? raw(' selected') : ''}>${a}</option>`)}</select>`;
}

// What each smart rule matches (the contract's words), its threshold in place: "more than 10" alone
// did not say 10 of what, and "fixed condition" not which.
const SMART_CONDITION: Record<SmartRuleId, (threshold: number | null) => Html> = {
  bot: () => html`the check's device or user agent is a bot (risk <code>bot</code>; crawlers never)`,
  anonymous: () => html`the risks contain anonymous, vpn, proxy or tor`,
  location: () => html`the IP's country is known and differs from the site's country`,
  repeat_device: (t) => html`the probe's device was seen in more than ${t} checks of this site in this and the previous calendar quarter`,
  emails_per_device: (t) => html`more than ${t} different emails were checked with the probe's device`,
};

// The allowlist's entries in its row: they are the site's, kept elsewhere, and the row alone did not say them.
function condition(r: Rule, allowlist: string[] = []): Html {
  if (r.type === 'custom') return html`<code>${r.filter ?? ''}</code>`;
  if (r.type === 'allowlist') {
    return allowlist.length ? html`the check's IP is in the site's IP allowlist: ${allowlist.map((ip, i) => html`${i ? ', ' : ''}<code>${ip}</code>`)}`
      : html`the check's IP is in the site's IP allowlist (the site has none, so it matches no check)`;
  }
  return Object.hasOwn(SMART_CONDITION, r.rule_id) ? SMART_CONDITION[r.rule_id as SmartRuleId](r.threshold) : html``;
}

/** How a row's controls name their rule: its name, and its id, as two custom rules may share a name. */
const ruleName = (r: Rule): string => `${r.name} (${r.rule_id})`;

function ruleRow(r: Rule, allowlist: string[]): Html {
  const edit = r.type === 'allowlist' ? html`<a href="${allowlistHref(r.site_id)}">See the allowlist</a>`
    : html`<a href="${ruleHref(r.site_id, r.rule_id)}" aria-label="Edit ${ruleName(r)}">Edit</a>
<form method="post" action="${ruleHref(r.site_id, r.rule_id)}/toggle" class="inline">
<button type="submit" class="small" aria-label="${r.enabled ? 'Disable' : 'Enable'} ${ruleName(r)}">${r.enabled ? 'Disable' : 'Enable'}</button></form>`;
  return html`<tr id="rule-${r.rule_id}" data-announce="New rule ${r.name}" data-gone="Rule ${r.name} deleted">
<td class="wrap">${r.name}<br><span class="mono muted">${r.rule_id}</span></td><td>${r.type}</td>
<td class="wrap">${condition(r, allowlist)}</td><td><span class="mono">${r.action}</span></td><td>${r.enabled ? 'enabled' : html`<span class="muted">disabled</span>`}</td>
<td>${edit}</td></tr>`;
}

interface Problem { field: string; html: Html }

function problemOf(err: unknown, filter: string | undefined): Problem {
  // not_found: the site the form was posted for (deleted meanwhile, or a hand-made address).
  if (!(err instanceof VtrError) || !['invalid_filter', 'invalid_request', 'not_found'].includes(err.code)) throw err;
  if (err.code === 'invalid_filter' && filter !== undefined) {
    return { field: 'filter', html: html`<div id="form-error">${filterError(filter, { message: err.message, position: Number(err.details?.position ?? 0) })}</div>` };
  }
  return { field: String(err.details?.field ?? ''), html: html`<div class="error" role="alert" id="form-error"><p>${messageHtml(err.message)}</p></div>` };
}

/** A rule as the form shows it: the stored one, or what was typed (a threshold as typed) beside an error. */
type FormRule = Omit<Partial<Rule>, 'threshold'> & { type: Rule['type']; threshold?: number | string | null };

/** `creating`: a new rule's name may be left blank (it is then named after its filter, as the API does). */
function ruleForm(o: { action: string; submit: string; rule: FormRule; problem?: Problem; version?: Html; creating?: boolean }): Html {
  const r = o.rule;
  // A refused field is described by the error too; ids are constants, safe unescaped.
  const bad = (f: string, help?: string) => {
    const refused = o.problem?.field === f, by = [help, refused ? 'form-error' : ''].filter(Boolean).join(' ');
    return raw((by ? ` aria-describedby="${by}"` : '') + (refused ? ' aria-invalid="true" autofocus' : ''));
  };
  return html`<form method="post" action="${o.action}" class="stack card" aria-label="${o.submit}">
${o.problem?.html ?? ''}${o.version ?? ''}
<div><label for="rule-name">Name</label><input type="text" id="rule-name" name="name" value="${r.name ?? ''}"${o.creating ? raw(' placeholder="the filter, when left blank"') : raw(' required')} maxlength="200"${bad('name')}></div>
${r.type === 'custom' ? html`<div><label for="rule-filter">Filter</label>
${filterField('rule-filter', r.filter ?? '', 'risks contains disposable_email', bad('filter', 'rule-filter-help'))}</div>
<p class="muted small" id="rule-filter-help">Over the check's session (or, without a valid probe, a record made from the check): the sessions filter language.</p>` : ''}
<div><label for="rule-action">Action</label>${actionSelect('rule-action', r.action ?? 'review')}</div>
${r.threshold !== undefined && r.threshold !== null ? html`<div><label for="rule-threshold">Threshold</label><input type="number" id="rule-threshold" name="threshold" min="1" value="${String(r.threshold)}" required${bad('threshold')}></div>` : ''}
<div class="check"><input type="checkbox" id="rule-enabled" name="enabled"${r.enabled !== false ? raw(' checked') : ''}><label for="rule-enabled">Enabled</label></div>
<div><button type="submit">${o.submit}</button></div>
</form>`;
}

/** What the form sent, shown again with its error so nothing typed is lost. */
const typed = (form: Record<string, string>): Omit<FormRule, 'type'> => {
  const sent = { name: form.name, filter: form.filter, action: form.action as Rule['action'] | undefined, threshold: form.threshold };
  return { ...Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== undefined)), enabled: form.enabled === 'on' };
};

const formInput = (form: Record<string, string>, rule: { type: Rule['type']; threshold?: number | null }) => ({
  name: form.name,
  ...(rule.type === 'custom' ? { filter: filterSent(form.filter) } : {}),
  action: form.action,
  ...(rule.threshold != null && form.threshold !== undefined ? { threshold: thresholdOf(form.threshold) } : {}),
  enabled: form.enabled === 'on',
});

/**
 * The threshold field as typed: digits are the number; anything else (NaN) is refused by the
 * update. Number() alone read a cleared field as 0 ("must be at least 1") and 1e1 as 10.
 */
const thresholdOf = (text: string): number => wholeNumberOf(text.trim());

/** The edit form's threshold, cleared: it is required, as the name is, not 0. */
function thresholdProblem(form: Record<string, string>, rule: Rule): VtrError | null {
  if (rule.threshold === null || form.threshold === undefined) return null;
  if (!form.threshold.trim()) return new VtrError('invalid_request', `threshold: required: a whole number from 1 to ${MAX_THRESHOLD}`, { field: 'threshold' });
  if (Number.isNaN(thresholdOf(form.threshold))) return new VtrError('invalid_request', `threshold: must be a whole number from 1 to ${MAX_THRESHOLD}`, { field: 'threshold' });
  return null;
}

export function registerRulesPages(r: ConsoleRouter): void {
  const { deps } = r;
  const rules = (): RuleService => {
    if (!deps.rules) throw new VtrError('not_found', 'rules are not available in this emulator');
    return deps.rules;
  };

  const listPage = (c: Context, problem?: Problem, values?: Omit<FormRule, 'type'>) => {
    const sites = deps.sites.list();
    const asked = c.req.query('site');
    const site = sites.find((s) => s.site_id === asked) ?? sites[0];
    if (!site) return r.render({ title: 'Rules', nav: 'rules', body: html`<h1>Rules</h1><p class="empty">No sites.</p>` });
    const list = rules().list(site.site_id);
    // A link to a deleted site's rules says so rather than showing another site's as if they were its.
    const missing = siteMissing(asked, sites, `these are the rules of ${site.name}.`);
    // The title names the site: two tabs, or history entries, of two sites' rules differ.
    const title = `Rules of ${site.name}`;
    const body = html`<div id="rule-sites"><h1>${title}</h1>
${missing}
${sites.length > 1 ? html`<p>Site: ${sites.map((s) => html`<a href="${rulesHref(s.site_id)}" aria-label="${s.name} (${s.site_id})"${s.site_id === site.site_id ? raw(' aria-current="page"') : ''}>${s.name}</a> `)}</p>` : ''}</div>
${flash(pick(DONE, c.req.query('done')))}
<p class="muted">Every visitor check runs the enabled rules in this order. The outcome is <em>allowed</em> when any matched rule allows, else <em>blocked</em> when any blocks (invalid traffic is always blocked), else <em>neutral</em>; review is asked when a matched action says so.</p>
<div id="rule-list">${scrollTable(`Rules of ${site.name}`, ['Rule', 'Type', 'Matches when', 'Action', 'State', 'Actions'], list.map((rule) => ruleRow(rule, site.ip_allowlist)))}</div>
<h2 id="new-rule">New custom rule</h2>
${ruleForm({ action: rulesHref(site.site_id), submit: 'Create rule', rule: { type: 'custom', action: 'review', ...values }, problem, creating: true })}`;
    return r.render({ title, nav: 'rules', body, script: html`vtrPage.rules(${scriptJson(site.site_id)});` });
  };

  const editPage = (rule: Rule, problem?: Problem, values?: Omit<FormRule, 'type'>) => {
    // #rule-edit follows a change made elsewhere (console-pages.ts), its notices naming the rule anew.
    const body = html`<p><a href="${rulesHref(rule.site_id)}">← Rules</a></p>
<div id="rule-edit" data-followed="${followedSaid(`The rule ${ruleName(rule)}`)}">
<h1>Rule ${rule.name}</h1>
<p class="muted"><span class="mono">${rule.rule_id}</span> · ${rule.type}</p>
${goneNotice('rule-gone', `The rule ${ruleName(rule)} was deleted elsewhere: saving ${rule.type === 'custom' ? 'or deleting it' : 'it'} here is no longer possible.`, rule.type === 'custom' ? html`What is typed below stays, to make it again on <a href="${rulesHref(rule.site_id)}#new-rule">Rules</a>.` : '')}
${changedNotice('rule-changed', `The rule ${ruleName(rule)}`, 'Save rule', ruleHref(rule.site_id, rule.rule_id))}
${rule.type === 'smart' ? html`<p>Matches when ${condition(rule)}.</p>` : ''}
${ruleForm({ action: ruleHref(rule.site_id, rule.rule_id), submit: 'Save rule', rule: { ...rule, ...values }, problem, version: versionField(rule) })}
${rule.type === 'custom' ? html`<form method="post" action="${ruleHref(rule.site_id, rule.rule_id)}/delete" data-confirm="Delete the rule ${rule.name}?">
<button type="submit" class="danger">Delete rule</button></form>` : ''}</div>`;
    return r.render({ title: `Rule ${rule.name}`, nav: 'rules', body, script: html`vtrPage.rule(${scriptJson({ id: rule.rule_id, site: rule.site_id })});` });
  };

  r.page('/rules', (c) => listPage(c));
  r.form('/rules', (c, form) => {
    // A blank name is no name: the rule is named after its filter.
    const { name, ...rest } = formInput(form, { type: 'custom' });
    const input = name === '' || name === undefined ? rest : { name, ...rest };
    try {
      const siteId = requiredSite(c.req.query('site'), { field: 'site', fix: 'this form was sent without ?site=; pick the site above and create the rule there' });
      const rule = rules().create(siteId, validate(RuleCreate, input));
      return `${rulesHref(siteId)}&done=created#rule-${rule.rule_id}`;
    } catch (err) {
      return c.html(listPage(c, problemOf(err, input.filter), typed(form)).text, 400);
    }
  });
  const ruleOf = (c: Context) => rules().get(c.req.param('site') ?? '', c.req.param('id') ?? '');
  // A rule that is gone leads back to its site's rules (all rules, when the site is gone too).
  const back = { back: (c: Context) => {
    const site = deps.sites.find(c.req.param('site') ?? '');
    return site ? { href: rulesHref(site.site_id), label: 'Back to rules' } : null;
  } };
  // The allowlist rule has no form of its own: its address opens the site's settings, as its row links.
  r.page('/rules/:site/:id', (c) => {
    const rule = ruleOf(c);
    return rule.type === 'allowlist' ? c.redirect(allowlistHref(rule.site_id), 302) : editPage(rule);
  }, back);
  r.form('/rules/:site/:id', (c, form) => {
    const rule = ruleOf(c);
    // Refused with the command that changes the ip_allowlist, on the error page: there is no form to show again.
    if (rule.type === 'allowlist') throw allowlistChangeRefused(rule.site_id);
    if (isStale(form, rule)) return c.html(editPage(rule, staleProblem('rule', ruleHref(rule.site_id, rule.rule_id), 'Save rule'), typed(form)).text, 409);
    const input = formInput(form, rule);
    try {
      const problem = thresholdProblem(form, rule);
      if (problem) throw problem;
      rules().update(rule.site_id, rule.rule_id, validate(RuleUpdate, input));
      return `${rulesHref(rule.site_id)}&done=updated#rule-${rule.rule_id}`;
    } catch (err) {
      return c.html(editPage(rule, problemOf(err, form.filter), typed(form)).text, 400);
    }
  }, back);
  r.form('/rules/:site/:id/toggle', (c) => {
    const rule = ruleOf(c);
    rules().update(rule.site_id, rule.rule_id, { enabled: !rule.enabled });
    return `${rulesHref(rule.site_id)}&done=updated#rule-${rule.rule_id}`;
  }, back);
  r.form('/rules/:site/:id/delete', (c) => {
    const rule = ruleOf(c);
    rules().delete(rule.site_id, rule.rule_id);
    return `${rulesHref(rule.site_id)}&done=deleted`;
  }, back);
}
