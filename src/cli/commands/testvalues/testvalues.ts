// `vtr testvalues`: the reserved test values, printed from the same table the emulator uses.
import { testValues } from '../../../domain/test-values.js';
import type { CliContext } from '../../context.js';
import { output, table } from '../../output.js';
import { riskColour, style } from '../../style.js';

export async function run(_o: unknown, ctx: CliContext): Promise<void> {
  const rows = testValues();
  const c = style(ctx);
  output(ctx, rows, () => [
    table(
      ['KIND', 'INPUT', 'EXAMPLE', 'RESULT', 'RISKS', 'LEVEL'],
      // Examples whole: they are there to be copied, and a cut user agent can lose the part that counts.
      rows.map((r) => [r.kind, r.value, r.example, r.result, r.risks.join(', ') || '-', r.risk_level ?? '-']),
    ).replace(/ (normal|unwanted|suspicious|invalid)$/gm, (_m, level: string) => ` ${riskColour(c, level)}`),
  ]);
  if (!ctx.config.json) {
    ctx.info('\nTry them: vtr check --ip 203.0.113.7, vtr sessions create --user-agent "<example>".');
    ctx.info('Outcomes with the default rules: 192.0.2.10 neutral; 198.51.100.7 neutral + review (anonymous);');
    ctx.info('203.0.113.7 blocked + review (invalid traffic); a HeadlessChrome probe blocked (bot rule);');
    ctx.info('an IP in the site\'s --ip-allowlist allowed. Rules: vtr rules list. (README: "Getting each outcome")');
  }
}
