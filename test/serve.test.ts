import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listenFailure } from '../src/serve.js';
import { writeAtomically } from '../src/write-file.js';
import { tempDir } from './helpers/vtr-process.js';

const errno = (code: string) => Object.assign(new Error(`listen ${code}: 127.0.0.1:80`), { code });

describe('serve: listen failures', () => {
  it('listenFailure: a port this user may not bind names the port and suggests --port 0', () => {
    for (const code of ['EACCES', 'EPERM']) {
      expect(listenFailure(errno(code), { port: 80, host: '127.0.0.1' }).message)
        .toBe(`port 80 on 127.0.0.1: permission denied (${code}); use --port 0 for a free port, or a port above 1023`);
    }
  });

  it('listenFailure: a port in use names it and suggests --port 0; other errors pass through', () => {
    expect(listenFailure(errno('EADDRINUSE'), { port: 8787, host: '127.0.0.1' }).message).toMatch(/^port 8787 on 127\.0\.0\.1 is in use .*--port 0/);
    expect(listenFailure(errno('EADDRNOTAVAIL'), { port: 0, host: '10.9.9.9' }).message).toMatch(/^--host 10\.9\.9\.9: cannot listen there/);
    const other = errno('EMFILE');
    expect(listenFailure(other, { port: 0, host: '127.0.0.1' })).toBe(other);
  });
});

describe('serve: --export-on-exit file', () => {
  it('writeAtomically: a write that fails leaves no temporary file behind (on a full disk it would hold the space)', async () => {
    const dir = tempDir();
    const target = join(dir, 'out.json');
    mkdirSync(target); // the rename onto it fails after the temporary file was written
    await expect(writeAtomically(target, [Buffer.from('{}')])).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['out.json']);
  });
});
