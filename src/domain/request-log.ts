import { utcText } from './time.js';

/** One public-API request as the request log shows it (bodies already masked). */
export interface RequestLogJson {
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  site_id: string | null;
  request_body: string | null;
  response_body: string | null;
  created_at: string;
}

/**
 * The accessible name of a log row's "View" (its bodies): the console renders rows on the server and
 * live in the browser, and both name it so; a screen reader's list of controls shows no row around it.
 */
export const logBodiesLabel = (e: Pick<RequestLogJson, 'method' | 'path' | 'created_at'>): string =>
  `View bodies of ${e.method} ${e.path} at ${utcText(e.created_at)}`;
