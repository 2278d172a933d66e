import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { logLine } from '../../src/cli/commands/logs/render.js';
import type { RequestLogJson } from '../../src/domain/request-log.js';

describe('cli: request log lines', () => {
  it('logLine: control characters in a request\'s method or path are shown escaped', () => {
    const e = { created_at: '2026-11-21T09:14:03.123456', method: 'GE\u001bT', path: '/a\u001b[31mb', status: 200, duration_ms: 1.2 } as unknown as RequestLogJson;
    const line = logLine(new Chalk({ level: 0 }), e);
    expect(line).toBe('2026-11-21 09:14:03.123 UTC GE\\u001bT /a\\u001b[31mb 200 1.20ms');
  });
});
