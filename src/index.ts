// Library entry: `import { startEmulator } from 'vtr'` runs an emulator in-process for tests. Only
// types and a small loader live here: the emulator and its dependencies load on the first
// startEmulator() call, so importing vtr costs a test file almost nothing.
import type { RunningEmulator, StartEmulatorOptions } from './library/types.js';

export type { Session, RiskLevel, EngagementLevel, Channel, DeviceType } from './domain/session.js';
export type { Site, AccessToken } from './domain/site.js';
export type { SavedView, Webhook, WebhookEvent, WebhookAttempt, EventStatus } from './domain/webhooks.js';
export type { CheckResult } from './checks/run-check.js';
export type { SessionInput, CheckInput, ViewInput, RuleInput, RuleUpdate, WebhookEventFilter, WaitForOptions } from './library/helpers.js';
export type { Rule, RuleAction, MatchedRule, Outcome } from './domain/rules.js';
export { ApiError, ConnectionError, createApiClient, NotEmulatorError } from './client/api-client.js';
export type { ApiClient, ClientOptions } from './client/api-client.js';
export { VERSION } from './version.js';
export type { StartEmulatorOptions, EmulatorClock, RunningEmulator } from './library/types.js';

export async function startEmulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const { start } = await import('./library/start.js');
  return start(opts);
}
