// What `vtr --version` prints: the version alone, or with --json one JSON document for scripts.
import { VERSION } from '../version.js';

export function versionLine(json: boolean, pretty: boolean): string {
  return json ? `${JSON.stringify({ version: VERSION }, null, pretty ? 2 : 0)}\n` : `${VERSION}\n`;
}
