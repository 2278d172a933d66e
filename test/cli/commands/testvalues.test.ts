import { describe, expect, it } from 'vitest';
import { jsonContext } from '../../helpers/cli-context.js';
import { run as testvalues } from '../../../src/cli/commands/testvalues/testvalues.js';
import { testValues } from '../../../src/domain/test-values.js';
import { orderRisks } from '../../../src/domain/risk.js';

describe('vtr testvalues', () => {
  it('testvalues: every example is printed whole, so a user agent copied from the table keeps its HeadlessChrome', async () => {
    const { ctx, out } = jsonContext('http://127.0.0.1:1/api/v1');
    (ctx.config as { json: boolean }).json = false;
    await testvalues({}, ctx);
    const printed = out();
    for (const row of testValues()) expect(printed, row.value).toContain(row.example);
    expect(printed).toMatch(/HeadlessChrome\/131/);
  });

  it('testvalues: each value\'s risks are listed in the order a check answers them (a datacenter IP: anonymous, hosting)', async () => {
    const { ctx, out } = jsonContext('http://127.0.0.1:1/api/v1');
    await testvalues({}, ctx);
    const rows = JSON.parse(out()) as Array<{ example: string; risks: string[] }>;
    for (const row of rows) expect(row.risks, row.example).toEqual(orderRisks(row.risks));
    expect(rows.find((r) => r.example === '198.51.100.10')?.risks).toEqual(['anonymous', 'hosting']);
    const { ctx: human, out: table } = jsonContext('http://127.0.0.1:1/api/v1');
    (human.config as { json: boolean }).json = false;
    await testvalues({}, human);
    expect(table()).toMatch(/198\.51\.100\.10 .* anonymous, hosting +suspicious/);
  });
});
