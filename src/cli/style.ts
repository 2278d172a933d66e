// Colour only on a TTY and without NO_COLOR/--no-color; chalk is told the level explicitly.
import { Chalk, type ChalkInstance } from 'chalk';
import type { CliContext } from './context.js';
import { printable } from './output.js';

const plain = new Chalk({ level: 0 });
const colour = new Chalk({ level: 1 });

export function style(ctx: CliContext): ChalkInstance {
  return ctx.config.color ? colour : plain;
}

/** For notes written to stderr: coloured when stderr itself is a terminal. */
export function stderrStyle(ctx: CliContext): ChalkInstance {
  return ctx.config.stderrColor ? colour : plain;
}

export function riskColour(c: ChalkInstance, level: string | null): string {
  const text = level ?? '-';
  switch (level) {
    case 'normal': return c.green(text);
    case 'unwanted': return c.yellow(text);
    case 'suspicious': return c.magenta(text);
    case 'invalid': return c.red(text);
    // Not a level this vtr knows (an answer from another version): shown, as any value, escaped.
    default: return printable(text);
  }
}
