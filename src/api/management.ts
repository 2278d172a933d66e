// Answers of the management API (`/_vtr/api`) as far as the client relies on them: each names the
// fields a command reads. Unknown fields are allowed (a newer emulator may answer more).
import { z } from 'zod';

export const SiteAnswer = z.looseObject({ site_id: z.string(), site_key: z.string(), secret_key: z.string() });
export const TokenAnswer = z.looseObject({ token: z.string(), site_id: z.string() });
export const ClockAnswer = z.looseObject({ now: z.string(), mode: z.string() });
export const DeletedAnswer = z.looseObject({ deleted: z.boolean() });
export const ViewAnswer = z.looseObject({ saved_view_id: z.string() });
export const RuleAnswer = z.looseObject({ rule_id: z.string(), type: z.string(), action: z.string(), enabled: z.boolean() });
export const WebhookAnswer = z.looseObject({ webhook_id: z.string(), url: z.string(), status: z.string() });
export const WebhookEventAnswer = z.looseObject({ webhook_event_id: z.string(), webhook_id: z.string(), status: z.string() });
export const SessionAnswer = z.looseObject({ session_id: z.string() });
export const SimulateAnswer = z.looseObject({ site_id: z.string(), count: z.number(), sample_session_ids: z.array(z.unknown()) });
export const CheckRecordAnswer = z.looseObject({ id: z.string(), risk_level: z.string() });
export const StateAnswer = z.looseObject({ tables: z.looseObject({}) });
export const StateImportAnswer = z.looseObject({ imported: z.boolean(), tables: z.looseObject({}) });
export const StateResetAnswer = z.looseObject({ reset: z.boolean(), site: z.looseObject({}), access_token: z.string() });

/** A JSON array of objects (a list answer whose items the client does not read by name). */
export const ListAnswer = z.array(z.looseObject({}));
