import { describe, expect, it } from 'vitest';
import { logBodiesLabel } from '../../src/domain/request-log.js';
import { utcText } from '../../src/domain/time.js';

describe('logBodiesLabel', () => {
  it('logBodiesLabel: names the request by method, path and its time as every time is shown, to the second in UTC', () => {
    const e = { method: 'POST', path: '/api/v1/event', created_at: '2026-11-21T09:14:03.123456' };
    expect(logBodiesLabel(e)).toBe('View bodies of POST /api/v1/event at 2026-11-21 09:14:03 UTC');
    expect(logBodiesLabel(e)).toBe(`View bodies of POST /api/v1/event at ${utcText(e.created_at)}`);
  });
});
