// How whoever started the emulator names its settings: messages that say what to change name the
// flag to a `vtr serve` user and the option to a `startEmulator()` (or `createHandlers()`) user.

export interface OptionNames {
  /** The database file. */
  db: string;
  /** Starting with an admin token. */
  adminToken: string;
  /** A clock that moves when told. */
  movableClock: string;
  /** Watching webhook attempts as they happen. */
  followAttempts: string;
  /** Moving a frozen or manual clock forward. */
  advanceClock: string;
  /** Moving it forward by `duration` (e.g. "5m"), as the one who started it would write it. */
  advanceClockBy(duration: string): string;
}

export const CLI_OPTION_NAMES: OptionNames = {
  db: '--db',
  adminToken: '`vtr serve --admin-token`',
  movableClock: '--clock frozen (or --clock manual)',
  followAttempts: '`vtr webhooks tail`',
  advanceClock: '`vtr clock advance`',
  advanceClockBy: (duration) => `\`vtr clock advance ${duration}\``,
};

export const LIBRARY_OPTION_NAMES: OptionNames = {
  db: "db (startEmulator's option)",
  adminToken: 'startEmulator({ adminToken })',
  movableClock: "startEmulator({ clock: 'frozen' }) (or 'manual')",
  followAttempts: 'emu.webhooks.waitFor()',
  advanceClock: 'emu.clock.advance()',
  advanceClockBy: (duration) => `emu.clock.advance('${duration}')`,
};

/** `createHandlers()` from `vtr/msw`, which starts its emulator with its emulatorOptions. */
export const HANDLERS_OPTION_NAMES: OptionNames = {
  ...LIBRARY_OPTION_NAMES,
  db: "db (createHandlers' emulatorOptions)",
  adminToken: 'createHandlers({ emulatorOptions: { adminToken } })',
  movableClock: "createHandlers({ emulatorOptions: { clock: 'frozen' } }) (or 'manual')",
};
