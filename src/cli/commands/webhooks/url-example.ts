// What a refused --url is followed by: the URL likely meant (a host and port typed without the
// scheme), else an example of one.
import { schemelessUrlMeant, urlShown } from '../../../domain/webhooks.js';

export function urlExample(url: string): string {
  const meant = schemelessUrlMeant(url);
  return meant ? `did you mean ${urlShown(meant)}?` : 'e.g. http://127.0.0.1:9000/';
}
