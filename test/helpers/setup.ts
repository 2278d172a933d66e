// Runs before every test file (vitest.config.ts setupFiles). Its afterAll is registered first, so
// with vitest's stacked hooks it runs last: after the file's own hooks have stopped its servers.
import { afterAll } from 'vitest';
import { removeTempDirs } from './vtr-process.js';

afterAll(removeTempDirs);
