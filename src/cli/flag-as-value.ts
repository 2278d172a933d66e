import type { Command } from 'commander';

/**
 * `--email $EMAIL --yes` with EMAIL unset and unquoted: commander takes the next flag as --email's
 * value. The first option whose value is one of the command's flags, as a usage error's words; else null.
 */
export function flagTakenAsValue(cmd: Command): string | null {
  const chain: Command[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) chain.push(c);
  const flags = new Set(chain.flatMap((c) => c.options.flatMap((o) => [o.long, o.short])).filter(Boolean));
  for (const c of chain) {
    for (const option of c.options) {
      const value: unknown = c.getOptionValue(option.attributeName());
      for (const v of Array.isArray(value) ? value : [value]) {
        if (typeof v !== 'string' || !flags.has(v.split('=')[0])) continue;
        const flag = option.long ?? option.short;
        return `${flag}: got the flag ${v} as its value (a shell variable left unset?); give ${flag} a value, quoted ("$VAR"), or leave it out`;
      }
    }
  }
  return null;
}
