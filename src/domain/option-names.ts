// How whoever started the emulator names its settings: messages that say what to change name the
// flag to a `vtr serve` user and the option to a `startEmulator()` (or `createHandlers()`) user.

export interface OptionNames {
  /** The database file. */
  db: string;
  /** Starting with an admin token. */
  adminToken: string;
  /** Where a request that came without the admin token finds it, and what sends it. */
  sendAdminToken: string;
  /** A clock that moves when told. */
  movableClock: string;
  /** Watching webhook attempts as they happen. */
  followAttempts: string;
  /** Moving a frozen or manual clock forward. */
  advanceClock: string;
  /** Moving it forward by `duration` (e.g. "5m"), as the one who started it would write it. */
  advanceClockBy(duration: string): string;
  /** Moving it to a time. */
  setClock: string;
  /** Emptying the state (which keeps the clock). */
  resetState: string;
  /** Starting an emulator whose frozen clock starts at the real time. */
  freshClock: string;
  /** Where the default site's credentials are read, for the public API's and the agent's 401s. */
  accessToken: string;
  secretKey: string;
  siteKey: string;
  /** Why a page's site key can be unknown: an emulator started afresh, with new keys. */
  newKeysEachStart: string;
}

export const CLI_OPTION_NAMES: OptionNames = {
  db: '--db',
  adminToken: '`vtr serve --admin-token`',
  sendAdminToken: 'or --admin-token / VTR_ADMIN_TOKEN',
  movableClock: '--clock frozen (or --clock manual)',
  followAttempts: '`vtr webhooks tail`',
  advanceClock: '`vtr clock advance`',
  advanceClockBy: (duration) => `\`vtr clock advance ${duration}\``,
  setClock: '`vtr clock set`',
  resetState: '`vtr state reset`',
  freshClock: '`vtr serve --memory --clock frozen`, or another --db',
  accessToken: '`vtr tokens list`',
  secretKey: '`vtr keys show`',
  siteKey: '`vtr keys show`',
  newKeysEachStart: '`vtr serve --memory` makes new keys at each start',
};

export const LIBRARY_OPTION_NAMES: OptionNames = {
  db: "db (startEmulator's option)",
  adminToken: 'startEmulator({ adminToken })',
  sendAdminToken: 'the one given to startEmulator({ adminToken }); emu.client and the helpers send it',
  movableClock: "startEmulator({ clock: 'frozen' }) (or 'manual')",
  followAttempts: 'emu.webhooks.waitFor()',
  advanceClock: 'emu.clock.advance()',
  advanceClockBy: (duration) => `emu.clock.advance('${duration}')`,
  setClock: 'emu.clock.set()',
  resetState: 'emu.reset()',
  freshClock: "a new startEmulator({ clock: 'frozen' }), with no db or another one",
  accessToken: 'emu.site.accessToken',
  secretKey: 'emu.site.secretKey',
  siteKey: 'emu.site.siteKey',
  newKeysEachStart: 'a startEmulator() without db makes new keys each time',
};

/** `createHandlers()` from `vtr/msw`, which starts its emulator with its emulatorOptions. */
export const HANDLERS_OPTION_NAMES: OptionNames = {
  ...LIBRARY_OPTION_NAMES,
  db: "db (createHandlers' emulatorOptions)",
  adminToken: 'createHandlers({ emulatorOptions: { adminToken } })',
  sendAdminToken: "the one given to createHandlers({ emulatorOptions: { adminToken } }); the handlers' emulator.client sends it",
  movableClock: "createHandlers({ emulatorOptions: { clock: 'frozen' } }) (or 'manual')",
  freshClock: "new createHandlers({ emulatorOptions: { clock: 'frozen' } }), with no db or another one",
  accessToken: "the handlers' emulator.site.accessToken",
  secretKey: "the handlers' emulator.site.secretKey",
  siteKey: "the handlers' emulator.site.siteKey",
  newKeysEachStart: 'createHandlers() without a db in emulatorOptions makes new keys each time',
};
