// The library's input and answer types, inferred from the schemas the API's routes declare
// (src/api/): the OpenAPI document, the server's validation and these types are one source.
// Inputs are what a request may send (z.input); answers are what the emulator sends (z.output).
import type { z } from 'zod';
import type { CheckRequest, CheckResult as CheckResultSchema } from '../api/check.js';
import type { CheckRecord as CheckRecordSchema } from '../api/management/checks.js';
import type { RuleCreate, RuleUpdate as RuleUpdateSchema, Rule as RuleSchema } from '../api/management/rules.js';
import type { SessionCreate, SimulateRequest, SimulateSummary as SimulateSummarySchema } from '../api/management/sessions.js';
import type { AccessToken as AccessTokenSchema, Site as SiteSchema, SiteInput as SiteInputSchema } from '../api/management/sites.js';
import type { SavedView as SavedViewSchema, ViewCreate, ViewUpdate as ViewUpdateSchema } from '../api/management/views.js';
import type { Notification as NotificationSchema, WebhookAttempt as WebhookAttemptSchema, WebhookEvent as WebhookEventSchema } from '../api/management/webhook-events.js';
import type { Webhook as WebhookSchema, WebhookCreate, WebhookUpdate as WebhookUpdateSchema } from '../api/management/webhooks.js';
import type { SessionSchema } from '../api/session.js';

/** `POST /_vtr/api/sites/{site_id}/sessions`: one session from the page views the agent would send. */
export type SessionInput = z.input<typeof SessionCreate>;
/** `POST /_vtr/api/sites/{site_id}/sessions/simulate`. */
export type SimulateInput = z.input<typeof SimulateRequest>;
/** `POST /api/v1/event`, without the secret key (the helper adds the site's). */
export type CheckInput = Omit<z.input<typeof CheckRequest>, 'secret_key'>;
/** `POST /_vtr/api/sites/{site_id}/views`; the helper's `trigger_webhooks` defaults to true. */
export type ViewInput = z.input<typeof ViewCreate>;
export type ViewUpdate = z.input<typeof ViewUpdateSchema>;
/** `POST /_vtr/api/sites/{site_id}/rules`: a custom rule. */
export type RuleInput = z.input<typeof RuleCreate>;
/** `PATCH /_vtr/api/sites/{site_id}/rules/{rule_id}`: smart rules by their ids (`bot`, `location`, ...). */
export type RuleUpdate = z.input<typeof RuleUpdateSchema>;
/** `POST /_vtr/api/sites/{site_id}/webhooks`. */
export type WebhookInput = z.input<typeof WebhookCreate>;
export type WebhookUpdate = z.input<typeof WebhookUpdateSchema>;
/** `POST /_vtr/api/sites` and `PATCH /_vtr/api/sites/{site_id}`. */
export type SiteInput = z.input<typeof SiteInputSchema>;

/**
 * An answer as the emulator sends it, without the schemas' open index signature (kept for the
 * OpenAPI document: answers may gain fields): a misspelt field (`check.riskLevel`) is then a type
 * error rather than `unknown`.
 */
type Known<T> = T extends readonly (infer U)[] ? Known<U>[] : T extends object ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> } : T;

// Interfaces, so that an editor shows an answer by its name (Session), not as its 40 fields.
export interface Session extends Known<z.output<typeof SessionSchema>> {}
export interface CheckResult extends Known<z.output<typeof CheckResultSchema>> {}
/** A check as `/_vtr/api/checks` lists it: the result and its site. */
export interface CheckRecord extends Known<z.output<typeof CheckRecordSchema>> {}
export type MatchedRule = CheckResult['rules'][number];
export type Outcome = CheckResult['outcome'];
export interface Site extends Known<z.output<typeof SiteSchema>> {}
export interface AccessToken extends Known<z.output<typeof AccessTokenSchema>> {}
export interface SavedView extends Known<z.output<typeof SavedViewSchema>> {}
export interface Rule extends Known<z.output<typeof RuleSchema>> {}
export type RuleAction = Rule['action'];
export interface Webhook extends Known<z.output<typeof WebhookSchema>> {}
export interface WebhookEvent extends Known<z.output<typeof WebhookEventSchema>> {}
export interface WebhookAttempt extends Known<z.output<typeof WebhookAttemptSchema>> {}
export type EventStatus = WebhookEvent['status'];
export interface Notification extends Known<z.output<typeof NotificationSchema>> {}
export interface SimulateSummary extends Known<z.output<typeof SimulateSummarySchema>> {}
