// Options left `undefined` are taken as left out at run time (`{ db: process.env.DB }`), so a project
// compiled with `exactOptionalPropertyTypes` may write them so too, without a cast.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

it('types: every option of startEmulator, the helpers and createHandlers takes undefined under exactOptionalPropertyTypes', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'vtr-types-')), 'use.ts');
  writeFileSync(file, `
    import { startEmulator, type WaitForOptions, type WebhookEventFilter } from ${JSON.stringify(join(SRC, 'index.js'))};
    import { createHandlers } from ${JSON.stringify(join(SRC, 'msw.js'))};
    export async function use(s: string | undefined, n: number | undefined, b: boolean | undefined, r: readonly number[] | undefined) {
      const emu = await startEmulator({ db: s, port: n, host: s, adminToken: s, listen: b, clock: undefined, retryBaseMs: n,
        retrySchedule: r, retryJitter: b, webhookTimeoutMs: n, smtpUrl: s, sync: undefined });
      await emu.sessions.list({ where: s, limit: n });
      const wait: WaitForOptions = { sessionId: s, webhookId: s, status: undefined, timeoutMs: n };
      const filter: WebhookEventFilter = { sessionId: s, webhookId: s, status: undefined };
      await emu.webhooks.waitFor(wait);
      await emu.webhooks.events(filter);
      await createHandlers({ baseUrl: 'https://risk.example.com', emulator: b ? emu : undefined });
      await createHandlers({ baseUrl: 'https://risk.example.com', emulatorOptions: { db: s, clock: undefined } });
    }
  `);
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: true, types: ['node'],
  });
  const messages = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]);
  expect(messages).toEqual([]);
}, 60_000);

it('types: webhooks.create takes its URL as a string or a URL object, bare or as { url }', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'vtr-types-')), 'use.ts');
  writeFileSync(file, `
    import { startEmulator } from ${JSON.stringify(join(SRC, 'index.js'))};
    export async function use() {
      const emu = await startEmulator();
      await emu.webhooks.create('http://127.0.0.1:9/hook');
      await emu.webhooks.create(new URL('http://127.0.0.1:9/hook'));
      await emu.webhooks.create({ url: 'http://127.0.0.1:9/hook' });
      await emu.webhooks.create({ url: new URL('http://127.0.0.1:9/hook') });
    }
  `);
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true, noEmit: true, skipLibCheck: true, types: ['node'],
  });
  const messages = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]);
  expect(messages).toEqual([]);
}, 60_000);
