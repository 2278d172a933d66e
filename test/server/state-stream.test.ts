// PUT /_vtr/api/state read as it arrives: rows in many chunks, fields in any order, a body over the
// limit, and what other requests see while the body is still coming.
import { afterEach, describe, expect, it } from 'vitest';
import { harnessPool, type Harness } from '../helpers/emulator.js';

type Doc = { vtr_state_version: number; exported_at: string; schema_version: number; tables: Record<string, Array<Record<string, unknown>>> };
const pool = harnessPool();
afterEach(pool.closeAll);

const exportOf = async (h: Harness) => (await h.admin<Doc>('GET', '/state')).body;

/** A body that sends `text` in pieces of `size` characters, waiting `between()` before each one. */
function pieces(text: string, size: number, between: (i: number) => Promise<void> = async () => undefined): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      await between(i);
      if (i * size >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(i * size, (i + 1) * size));
      i++;
    },
  });
}

const put = async (h: Harness, body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) => {
  const res = await h.request('/_vtr/api/state', { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body, duplex: 'half' } as RequestInit);
  return { status: res.status, body: (await res.json()) as { code: string; message: string; tables: Record<string, number> } };
};

describe('state import, read as it arrives', () => {
  it('import: a document whose rows arrive in many chunks (a stream body) is imported whole', async () => {
    const h = pool.fresh();
    for (let i = 0; i < 30; i++) await h.createSession({ ip: `203.0.113.${i + 1}`, custom_events: ['Ünïcode ✓'] });
    const doc = await exportOf(h);
    const other = pool.fresh();
    // 7 bytes a chunk: keys, strings and multi-byte characters are cut everywhere.
    const r = await put(other, pieces(JSON.stringify(doc), 7));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.tables.sessions).toBe(30);
    expect(JSON.stringify((await exportOf(other)).tables)).toBe(JSON.stringify(doc.tables));
  });

  it('import: a version after the tables that is wrong is refused with its message; nothing changed', async () => {
    const h = pool.fresh();
    await h.createSession();
    const before = await exportOf(h);
    const doc = structuredClone(before);
    doc.tables.sessions.push({ ...doc.tables.sessions[0], session_id: 'ses_added' });
    const { tables, ...fields } = doc;
    const text = JSON.stringify({ tables, ...fields, vtr_state_version: 2 });
    expect(text.indexOf('"tables"')).toBeLessThan(text.indexOf('"vtr_state_version"'));
    const r = await put(h, pieces(text, 64));
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('this state export was made by a newer vtr (vtr_state_version 2; this vtr reads up to 1): upgrade vtr to import it');
    expect(JSON.stringify((await exportOf(h)).tables)).toBe(JSON.stringify(before.tables));
    // Right, the version may come last.
    const ok = await put(h, JSON.stringify({ tables, ...fields, vtr_state_version: 1 }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('import: while the body is still coming, other requests see the state as it was and are not taken into the import', async () => {
    const h = pool.fresh();
    await h.createSession();
    const doc = await exportOf(h);
    let created = '';
    const body = pieces(JSON.stringify(doc), 256, async (i) => {
      if (i !== 2) return;
      // Half way: a write goes through on its own, and reads see the state as it was.
      created = (await h.createSession()).session_id;
      expect((await h.admin('GET', '/sessions')).body).toHaveLength(2);
    });
    const r = await put(h, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(created).not.toBe('');
    // The import replaced everything, that session too.
    expect((await exportOf(h)).tables.sessions.map((s) => s.session_id)).toEqual(doc.tables.sessions.map((s) => s.session_id));
  });

  it('import: a body declared over the limit is refused at once, naming the limit', async () => {
    const h = pool.fresh();
    const r = await put(h, '{}', { 'content-length': String(5 * 1024 ** 3) });
    expect(r.status).toBe(413);
    expect(r.body.message).toMatch(/4 GiB/);
  });

  it('import: a body cut short says it ends early; a wrong byte says where', async () => {
    const h = pool.fresh();
    const text = JSON.stringify(await exportOf(h));
    const cut = await put(h, pieces(text.slice(0, 100), 10));
    expect(cut.status).toBe(400);
    expect(cut.body).toMatchObject({ code: 'invalid_json', message: 'the body is not valid JSON: Unexpected end of JSON input' });
    const wrong = await put(h, pieces(`${text.slice(0, 1)},,${text.slice(1)}`, 1000));
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('invalid_json');
  });

  it('import: a syntax error deep in a document read in chunks names its character, line and column, as an editor shows them', async () => {
    const h = pool.fresh();
    for (let i = 0; i < 20; i++) await h.createSession({ ip: `203.0.113.${i + 1}` });
    const good = JSON.stringify(await exportOf(h), null, 2);
    const last = good.lastIndexOf('"session_id": "');
    const bad = `${good.slice(0, last)}"session_id" ${good.slice(last + '"session_id": '.length)}`;
    const at = last + '"session_id" '.length; // the value where its colon should be
    const line = bad.slice(0, at).split('\n').length;
    const column = at - bad.lastIndexOf('\n', at - 1);
    expect(line).toBeGreaterThan(100);
    const r = await put(h, pieces(bad, 997));
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_json');
    expect(r.body.message).toMatch(new RegExp(`^the body is not valid JSON: .+ at position ${at} \\(line ${line} column ${column}\\)$`));
  });
});
