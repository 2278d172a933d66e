/** Digits that fit 32 bits (every seed the emulator reports) are a seed number; other text is hashed. */
export const isNumericSeed = (seed: string): boolean => /^\d{1,10}$/.test(seed) && Number(seed) <= 0xffffffff;
