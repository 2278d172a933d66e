import { describe, expect, it } from 'vitest';
import { isPublicPath } from '../../src/server/request-log.js';

describe('request log paths', () => {
  it('isPublicPath: the public API and everything under it, as its routes are matched', () => {
    for (const p of ['/api/v1', '/api/v1/', '/api/v1/event', '/api/v1/session/ses_x/event', '/api/v1/nowhere']) expect(isPublicPath(p), p).toBe(true);
  });
  it('isPublicPath: not a path that only begins like it, nor the management API', () => {
    for (const p of ['/api/v1x', '/api/v10/event', '/api', '/api/v2/event', '/_vtr/api/sessions', '/', '/API/V1/event']) expect(isPublicPath(p), p).toBe(false);
  });
});
