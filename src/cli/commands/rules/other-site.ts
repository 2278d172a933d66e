import { ApiError, type ApiClient } from '../../../client/api-client.js';
import { UsageError } from '../../errors.js';
import { enc } from '../../site-ref.js';

/**
 * Runs `op` on a rule of `siteId`. A custom rule's id names one rule across the emulator, but its
 * path holds its site: one made with --site and changed without it (or with another) would only be
 * "not found". Looking across the sites then says which site holds it and to give --site.
 */
export async function onRuleSite<T>(client: ApiClient, siteId: string, ruleId: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404 || !ruleId.startsWith('rule_') || !err.message.startsWith('rule ')) throw err;
    const sites = await client.admin<Array<{ site_id: string }>>('GET', '/sites');
    for (const { site_id: other } of sites) {
      if (other === siteId) continue;
      const found = await client.admin('GET', `/sites/${enc(other)}/rules/${enc(ruleId)}`).then(() => true, (e: unknown) => {
        if (e instanceof ApiError && e.status === 404) return false;
        throw e;
      });
      if (found) throw new UsageError(`--site: rule ${ruleId} is on site ${other}, not ${siteId}; give --site ${other}`);
    }
    throw err;
  }
}
