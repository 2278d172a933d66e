import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples } from '../../help.js';

export function registerOpenApi(program: Command): void {
  examples(program.command('openapi').description('print the OpenAPI 3.1 document of the public API (/api/v1) and the management API (/_vtr/api); no server needed'), [
    'vtr openapi > openapi.json',
    'curl http://127.0.0.1:8787/api/v1/openapi.json   # the same document, served',
  ]).action(action(() => import('./openapi.js'), { siteless: 'prints the one API document, the same for every site' }));
}
