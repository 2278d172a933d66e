import type { CliContext } from '../../context.js';
import { setStatus } from './set-status.js';

export const run = (o: { args: string[] }, ctx: CliContext) => setStatus(o.args[0], 'disable', ctx);
