// Library entry: `import { startEmulator } from 'vtr'` runs an emulator in-process for tests. Only
// types and a small loader live here: the emulator and its dependencies load on the first
// startEmulator() call, so importing vtr costs a test file almost nothing.
import type { RunningEmulator, StartEmulatorOptions } from './library/types.js';
// Takes the host's timers now, before a test suite can fake them for its own code.
import './domain/timers.js';

export type { RiskLevel, EngagementLevel, Channel, DeviceType } from './domain/session.js';
// Inputs and answers, inferred from the schemas the API's routes declare (the OpenAPI document's).
export type {
  Session, Site, AccessToken, SavedView, Webhook, WebhookEvent, WebhookAttempt, EventStatus, CheckResult, CheckRecord, Rule,
  RuleAction, MatchedRule, Outcome, Notification, SimulateSummary, SessionInput, SimulateInput, CheckInput, ViewInput, ViewUpdate,
  RuleInput, RuleUpdate, WebhookInput, WebhookUpdate, SiteInput,
} from './library/api-types.js';
export type { WebhookEventFilter, WaitForOptions } from './library/helpers.js';
export { ApiError, ConnectionError, createApiClient, NotEmulatorError } from './client/api-client.js';
// What startEmulator (a database or port it cannot use), emu.clock (a move it refuses) and waitFor (its time up) throw, for `instanceof`.
export { VtrError, type ErrorCode } from './domain/errors.js';
export { ClockError } from './domain/clock.js';
export { WaitForTimeoutError } from './library/wait-timeout.js';
export type { ApiClient, ClientOptions, RequestOptions as ApiRequestOptions } from './client/api-client.js';
export type { HttpMethod } from './client/http.js';
export type { ClockMode } from './domain/clock.js';
export { VERSION } from './version.js';
export type { StartEmulatorOptions, EmulatorClock, EmulatorSite, EmulatorHelpers, RunningEmulator } from './library/types.js';

export async function startEmulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const { start } = await import('./library/start.js');
  return start(opts);
}
