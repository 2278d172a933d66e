import { UsageError } from '../../errors.js';

/** `-5m` asks to go back, which a manual clock never does; commander would call it an unknown option. */
export const isBackwards = (duration: string) => /^-\d/.test(duration);
export const backwardsMessage = (duration: string) => `<duration>: "${duration}": the clock only moves forward; give a positive duration, e.g. 5m`;
export const backwards = (duration: string) => new UsageError(backwardsMessage(duration));
