import { describe, expect, it } from 'vitest';
import { jsonContext } from '../../helpers/cli-context.js';
import { run as testvalues } from '../../../src/cli/commands/testvalues/testvalues.js';
import { testValues } from '../../../src/domain/test-values.js';

describe('vtr testvalues', () => {
  it('testvalues: every example is printed whole, so a user agent copied from the table keeps its HeadlessChrome', async () => {
    const { ctx, out } = jsonContext('http://127.0.0.1:1/api/v1');
    (ctx.config as { json: boolean }).json = false;
    await testvalues({}, ctx);
    const printed = out();
    for (const row of testValues()) expect(printed, row.value).toContain(row.example);
    expect(printed).toMatch(/HeadlessChrome\/131/);
  });
});
