import { ApiError } from '../../../client/api-client.js';
import { UsageError } from '../../errors.js';

/**
 * The server's 400 about the rule itself (a built-in rule the verb cannot act on): the <rule-id>
 * argument's usage error, exit 2, as a refused --filter or --action is. Retrying cannot help.
 */
export function ruleIdUsageError(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.status !== 400 || err.code !== 'invalid_request' || err.body.field !== 'rule_id') return err;
  return new UsageError(`<rule-id>: ${err.message}`);
}
