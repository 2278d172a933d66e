import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBrowserScripts, packageRoot } from '../../src/server/browser-scripts.js';
import { tempDir } from '../helpers/vtr-process.js';

describe('browser scripts', () => {
  it('packageRoot: walks up from a module to the directory of vtr\'s package.json', () => {
    const root = packageRoot(join(process.cwd(), 'src', 'server'));
    expect(root).toBe(process.cwd());
    expect(packageRoot(tempDir())).toBeNull();
  });

  it('get: reads the built script once it exists', () => {
    const dir = tempDir();
    const scripts = createBrowserScripts(dir);
    expect(() => scripts.get('agent')).toThrow(/agent\.js is not built.*run npm run build/);
    writeFileSync(join(dir, 'agent.js'), '/* built */');
    expect(scripts.get('agent')).toBe('/* built */');
  });

  it('get: a missing build is a 503 not_built error naming the fix, not a crash', () => {
    let error: unknown;
    try {
      createBrowserScripts(null).get('console');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'not_built', status: 503, message: expect.stringContaining('run npm run build') });
  });
});
