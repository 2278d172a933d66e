// Whole numbers as people type them into flags, form fields and query strings: digits only (a
// leading minus is read, so that -1 is told the range). Number() alone reads "" or blanks as 0,
// "0x10" as 16 and "1e3" as 1000.

/** `text` as a whole number, or NaN when it is anything but (optionally signed) digits. */
export const wholeNumberOf = (text: string): number => (/^-?\d{1,16}$/.test(text) ? Number(text) : NaN);
