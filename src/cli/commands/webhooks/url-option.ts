// --url of `webhooks create` and `update`, refused before any request: with the URL likely meant
// (a host and port typed without the scheme), else an example of one.
import { schemelessUrlMeant, webhookUrlProblem } from '../../../domain/webhooks.js';
import { urlText } from './render.js';
import { UsageError } from '../../errors.js';

export function checkUrlOption(url: string): void {
  const problem = webhookUrlProblem(url);
  if (!problem) return;
  const meant = schemelessUrlMeant(url);
  throw new UsageError(`--url: "${urlText(url)}" ${problem} (${meant ? `did you mean ${urlText(meant)}?` : 'e.g. http://127.0.0.1:9000/'})`);
}
