// A saved view's or rule's edit form carries the version of what it was loaded with, so a save sent
// after a change made elsewhere (the CLI, the API, another tab) is refused rather than written over
// that change unseen. The version is a digest of the stored object: neither has an update time.
import { createHash } from 'node:crypto';
import { html, type Html } from './html.js';

export const versionOf = (stored: object): string => createHash('sha256').update(JSON.stringify(stored)).digest('hex').slice(0, 16);

/** The form's hidden field; a post without it (a hand-made one) is not checked. */
export const versionField = (stored: object): Html => html`<input type="hidden" name="version" value="${versionOf(stored)}">`;

export const isStale = (form: Record<string, string>, stored: object): boolean => form.version !== undefined && form.version !== versionOf(stored);

/**
 * The refusal, shown above the form with what was typed: the page it comes on carries the new
 * version, so sending the form again writes over the change, as the user then chose.
 */
export function staleProblem(what: string, href: string, submit: string): { field: string; html: Html } {
  return { field: '', html: html`<div class="error" role="alert" id="form-error"><p>Not saved: the ${what} was changed elsewhere since this form was loaded. What is typed is kept below: ${submit} again to write over that change, or <a href="${href}">load the new values</a>.</p></div>` };
}
