// `vtr testvalues`: the reserved test values, printed from the same table the emulator uses.
import { testValues } from '../../../domain/test-values.js';
import { RISK_LABELS } from '../../../domain/risk.js';
import type { CliContext } from '../../context.js';
import { output, table } from '../../output.js';
import { riskColour, style } from '../../style.js';

/** Risks in the order a check answers them: known labels in RISK_LABELS order (most severe first), then others. */
function inCheckOrder(risks: readonly string[]): string[] {
  const known: readonly string[] = RISK_LABELS;
  return [...known.filter((l) => risks.includes(l)), ...risks.filter((l) => !known.includes(l))];
}

export async function run(_o: unknown, ctx: CliContext): Promise<void> {
  const rows = testValues().map((r) => ({ ...r, risks: inCheckOrder(r.risks) }));
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
