// What a library user catches: every error class startEmulator and its clock throw is exported.
import { describe, expect, it } from 'vitest';
import { ClockError, startEmulator, VtrError } from '../../src/index.js';
import { tempDir } from '../helpers/vtr-process.js';

describe('library errors', () => {
  it('clock: a refused move rejects with the exported ClockError, named as such', async () => {
    const emu = await startEmulator({ listen: false });
    const frozen = await startEmulator({ clock: 'frozen', listen: false });
    try {
      const system = await emu.clock.advance('1h').catch((e: unknown) => e);
      expect(system).toBeInstanceOf(ClockError);
      expect(system).toMatchObject({ name: 'ClockError' });
      const back = await frozen.clock.set('2001-01-01T00:00:00Z').catch((e: unknown) => e);
      expect(back).toBeInstanceOf(ClockError);
      expect((back as Error).message).toMatch(/only moves forward/);
      // Both times, and the way back in the library's words.
      const target = await frozen.clock.set('2999-01-01T00:00:00Z');
      expect(target).toBeUndefined();
      const behind = await frozen.clock.set('2998-06-01T12:00:00Z').catch((e: unknown) => e);
      expect(behind).toBeInstanceOf(ClockError);
      expect((behind as Error).message).toBe(
        "emu.clock.set: 2998-06-01 12:00:00 UTC is before the clock's current time, 2999-01-01 00:00:00 UTC (emulated): the clock only moves forward, and emu.reset() keeps it. " +
          "To go back, start the emulator again on a new database (a new startEmulator({ clock: 'frozen' }), with no db or another one): its clock starts at the real time, then emu.clock.set() it.",
      );
    } finally {
      await emu.close();
      await frozen.close();
    }
  });

  it('clock: a system clock refuses advance and set each named first, as their other refusals are', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      const advance = await emu.clock.advance('1h').catch((e: unknown) => e);
      expect(advance).toBeInstanceOf(ClockError);
      expect((advance as Error).message).toMatch(/^emu\.clock\.advance: the clock is in system mode .*startEmulator\(\{ clock: 'frozen' \}\)/);
      const set = await emu.clock.set('2999-01-01T00:00:00Z').catch((e: unknown) => e);
      expect(set).toBeInstanceOf(ClockError);
      expect((set as Error).message).toMatch(/^emu\.clock\.set: the clock is in system mode /);
    } finally {
      await emu.close();
    }
  });

  it('startEmulator: a database of a newer vtr rejects with the exported VtrError and its code', async () => {
    const { join } = await import('node:path');
    const Database = (await import('better-sqlite3')).default;
    const db = join(tempDir('vtr-errors-'), 'new.db');
    const raw = new Database(db);
    raw.pragma('user_version = 9999');
    raw.close();
    const err = await startEmulator({ db, listen: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VtrError);
    expect(err).toMatchObject({ code: 'schema_too_new' });
  });
});
