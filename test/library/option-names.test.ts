// A startEmulator() user is told what to change in startEmulator's own terms, never a vtr serve flag.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';
import { tempDir } from '../helpers/vtr-process.js';

const FLAG = /--(db|clock|admin-token)\b|vtr serve/;
const dir = () => tempDir('vtr-options-');

describe('library messages', () => {
  it('db: a database that cannot be used is refused naming startEmulator\'s db option', async () => {
    const d = dir();
    writeFileSync(join(d, 'file'), '');
    const under = await startEmulator({ db: join(d, 'file', 'x.db'), listen: false }).catch((e: Error) => e);
    expect((under as Error).message).toMatch(/pass another db \(startEmulator's option\)/);
    expect((under as Error).message).not.toMatch(FLAG);
    writeFileSync(join(d, 'text.db'), 'not a database at all, but long enough to be read as one '.repeat(20));
    const text = await startEmulator({ db: join(d, 'text.db'), listen: false }).catch((e: Error) => e);
    expect((text as Error).message).toMatch(/db \(startEmulator's option\)/);
    expect((text as Error).message).not.toMatch(FLAG);
    const newer = join(d, 'newer.db');
    const raw = new Database(newer);
    raw.pragma('user_version = 9999');
    raw.close();
    const err = await startEmulator({ db: newer, listen: false }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/use another db \(startEmulator's option\)/);
    expect((err as Error).message).not.toMatch(FLAG);
  });

  it('clock: the management API\'s refusal to move a system clock names startEmulator\'s clock option', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      const err = await emu.client.admin('POST', '/clock/advance', { body: { duration: '1h' } }).catch((e: Error) => e);
      expect((err as Error).message).toMatch(/startEmulator\(\{ clock: 'frozen' \}\)/);
      expect((err as Error).message).not.toMatch(FLAG);
    } finally {
      await emu.close();
    }
  });

  it('retry: refusing a retry while automatic retries run names the library\'s clock helper', async () => {
    const emu = await startEmulator({ clock: 'frozen', listen: false });
    try {
      await emu.views.create({ name: 'tor', filter: 'risk_level = invalid' });
      await emu.webhooks.create('http://127.0.0.1:9/refused');
      const session = await emu.sessions.create({ ip: '203.0.113.7' });
      const event = await emu.webhooks.waitFor({ sessionId: session.session_id, status: 'retrying' });
      const err = await emu.client.admin('POST', `/webhook-events/${event.webhook_event_id}/retry`).catch((e: Error) => e);
      expect((err as Error).message).toMatch(/emu\.clock\.advance\('2s'\) runs it/);
      expect((err as Error).message).not.toMatch(/--clock|`vtr /);
    } finally {
      await emu.close();
    }
  });

  it('close: a clock move cut short by emu.close() says how to finish it with the library\'s clock helper', async () => {
    const { createServer } = await import('node:http');
    // Holds each attempt a while, so the close comes while the move waits on one.
    const receiver = createServer((_req, res) => void setTimeout(() => res.writeHead(500).end(), 300));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const emu = await startEmulator({ clock: 'frozen', listen: false });
    try {
      await emu.views.create({ name: 'tor', filter: 'risk_level = invalid' });
      await emu.webhooks.create(`http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`);
      const session = await emu.sessions.create({ ip: '203.0.113.7' });
      await emu.webhooks.waitFor({ sessionId: session.session_id, status: 'retrying' });
      const move = emu.clock.advance('1h').catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 100));
      await emu.close();
      const err = await move;
      expect(err).toMatchObject({ code: 'shutting_down' });
      expect((err as Error).message).toMatch(/emu\.clock\.advance\('59m\d+s'\)/);
      expect((err as Error).message).not.toMatch(/`vtr /);
    } finally {
      await emu.close();
      receiver.close();
    }
  });

  it('adminToken: a missing or wrong admin token and a foreign Host are refused naming startEmulator\'s adminToken option', async () => {
    const guarded = await startEmulator({ listen: false, adminToken: 'right' });
    const open = await startEmulator({ listen: false });
    try {
      const wrong = await guarded.fetch('/_vtr/api/sites', { headers: { authorization: 'Bearer wrong' } });
      const body = (await wrong.json()) as { message: string };
      expect(wrong.status).toBe(401);
      expect(body.message).toMatch(/startEmulator\(\{ adminToken \}\)/);
      expect(body.message).not.toMatch(FLAG);
      // Sent without one: where the token is, and what sends it, in the library's words.
      const none = await guarded.fetch('/_vtr/api/sites');
      const missing = (await none.json()) as { message: string };
      expect(none.status).toBe(401);
      expect(missing.message).toBe('this emulator needs its admin token: Authorization: Bearer <admin token> (the one given to startEmulator({ adminToken }); emu.client and the helpers send it)');
      const foreign = await open.fetch(new Request('http://127.0.0.1/_vtr/api/sites', { headers: { host: 'rebound.example' } }));
      const why = (await foreign.json()) as { message: string };
      expect(foreign.status).toBe(403);
      expect(why.message).toMatch(/without startEmulator\(\{ adminToken \}\)/);
      expect(why.message).not.toMatch(FLAG);
    } finally {
      await guarded.close();
      await open.close();
    }
  });
  it('credentials: a public API or agent 401 points at emu.site, not at vtr tokens list / vtr keys show / vtr serve --memory', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      const CLI = /`vtr /;
      const read = async (res: Response) => {
        expect(res.status).toBe(401);
        const body = (await res.json()) as { code: string; message: string };
        expect(body.code).toBe('unauthorized');
        expect(body.message).not.toMatch(CLI);
        return body.message;
      };
      expect(await read(await emu.fetch('/api/v1/session/ses_x'))).toMatch(/emu\.site\.accessToken/);
      expect(await read(await emu.fetch('/api/v1/session/ses_x', { headers: { authorization: 'Bearer at_test_gone' } }))).toMatch(/emu\.site\.accessToken/);
      const post = (body: object) => emu.fetch('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(await read(await post({ email: 'a@example.com' }))).toMatch(/emu\.site\.secretKey/);
      expect(await read(await post({ secret_key: 'sk_test_gone' }))).toMatch(/emu\.site\.secretKey/);
      const agent = await emu.fetch('/_vtr/agent/pageview', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ site_key: 'pk_test_gone' }) });
      // Its likely cause in the library's terms, not `vtr serve --memory`'s.
      expect(await read(agent)).toMatch(/a startEmulator\(\) without db makes new keys each time.*emu\.site\.siteKey/);
    } finally {
      await emu.close();
    }
  });
});
