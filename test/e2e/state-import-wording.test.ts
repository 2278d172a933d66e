// `vtr state import` and `vtr serve --import` word a refused file alike, driving the built binary.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';

describe('vtr state import', () => {
  let server: ServerProcess;
  const dir = tempDir();
  beforeAll(async () => {
    server = await startServer(['--memory']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('state import and serve --import: a file made by a newer vtr, or with a schema_version that is not a version number, is refused in one wording naming the file and the field', async () => {
    const doc = JSON.parse((await runCli(['state', 'export', '-'], { env: server.env })).stdout);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...doc, vtr_state_version: 2 }, 'this state export was made by a newer vtr (vtr_state_version 2; this vtr reads up to 1): upgrade vtr to import it'],
      [{ ...doc, schema_version: 999 }, `this state export was made by a newer vtr (schema_version 999; this vtr reads up to ${doc.schema_version}): upgrade vtr to import it`],
      [{ ...doc, schema_version: null }, 'not a vtr state export: schema_version null is not a version number'],
    ];
    const file = join(dir, 'versions.json');
    for (const [body, message] of cases) {
      writeFileSync(file, JSON.stringify(body));
      const imported = await runCli(['state', 'import', file, '--yes'], { env: server.env });
      expect(imported.code).toBe(1);
      expect(imported.stderr).toBe(`vtr: error: ${file}: ${message}\n`);
      const served = await runCli(['serve', '--memory', '--port', '0', '--import', file]);
      expect(served.code).toBe(1);
      expect(served.stderr).toBe(`vtr: error: --import ${file}: ${message}\n`);
    }
  });
});
