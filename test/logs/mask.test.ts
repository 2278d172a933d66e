// The request log's mask (src/logs/mask.ts): a secret key's field is masked however its name is
// written in JSON, and secretKeyOf reads the same field the server takes as the credential.
import { describe, expect, it } from 'vitest';
import { maskText, secretKeyOf } from '../../src/logs/mask.js';

const WRONG = 'my-wrong-key-1234567'; // no secret's shape: only the field's name gives it away

describe('maskText', () => {
  it('maskText: a secret_key whose name is written with a JSON escape is masked, whatever the value', () => {
    for (const name of ['secret\\u005fkey', 'secret\\u005Fkey', '\\u0073ecret_key', '\\u0073\\u0065\\u0063\\u0072\\u0065\\u0074\\u005f\\u006b\\u0065\\u0079']) {
      const body = `{"${name}":"${WRONG}","email":"a@example.com"}`;
      expect(JSON.parse(body)).toHaveProperty('secret_key', WRONG); // what the server reads
      const masked = maskText(body);
      expect(masked, name).not.toContain(WRONG);
      expect(masked, name).toBe(`{"${name}":"…4567","email":"a@example.com"}`);
    }
  });

  it('maskText: SECRET_KEY and other cases of the name are masked too, escaped or not', () => {
    expect(maskText(`{"SECRET_KEY":"${WRONG}"}`)).toBe('{"SECRET_KEY":"…4567"}');
    expect(maskText(`{"Secret\\u005FKey" : "${WRONG}"}`)).toBe('{"Secret\\u005FKey" : "…4567"}');
    expect(maskText(`{"\\u0053ECRET_KEY":"${WRONG}"}`)).toBe('{"\\u0053ECRET_KEY":"…4567"}');
  });

  it('maskText: other fields, escaped or not, are left alone', () => {
    const bodies = [
      '{"email":"caf\\u00e9@example.com","name":"Zo\\u00eb"}',
      '{"secret_keys":"abcdefghijklmnopqrst"}',
      '{"secret\\u005fkeyx":"abcdefghijklmnopqrst"}',
      '{"note":"secret_key"}',
      '{"secret\\/key":"abcdefghijklmnopqrst"}',
    ];
    for (const b of bodies) expect(maskText(b)).toBe(b);
  });

  it('maskText: the unescaped field and the shapes are masked as before', () => {
    expect(maskText('{"secret_key": "short"}')).toBe('{"secret_key": "…"}');
    expect(maskText(`{"secret_key":"${WRONG}"}`)).toBe('{"secret_key":"…4567"}');
    expect(maskText('{"secret_key":"sk_test_abcdefghijklmnopqrstuv"}')).toBe('{"secret_key":"sk_test_…stuv"}');
    expect(maskText('{"secret_key":"a\\"bcdefghijklmnopqrstuv","x":1}')).toBe('{"secret_key":"…stuv","x":1}');
    expect(maskText('{"email":"a@example.com"}')).toBe('{"email":"a@example.com"}');
  });
});

describe('secretKeyOf', () => {
  it('secretKeyOf: reads a secret_key whose name is written with JSON escapes, value decoded', () => {
    expect(secretKeyOf(`{"secret\\u005fkey":"${WRONG}"}`)).toBe(WRONG);
    expect(secretKeyOf(`{"\\u0073ecret_key":"${WRONG}"}`)).toBe(WRONG);
    expect(secretKeyOf('{"secret_key":"sk_test_\\u0061bc"}')).toBe('sk_test_abc');
    expect(secretKeyOf(`{"secret_key":"${WRONG}"}`)).toBe(WRONG);
  });

  it('secretKeyOf: only the exact name the server reads (SECRET_KEY is masked but is no credential)', () => {
    expect(secretKeyOf(`{"SECRET_KEY":"${WRONG}"}`)).toBeNull();
    expect(secretKeyOf(`{"\\u0053ecret_key":"${WRONG}"}`)).toBeNull();
    expect(secretKeyOf('{"email":"caf\\u00e9@example.com"}')).toBeNull();
    expect(secretKeyOf(null)).toBeNull();
    expect(secretKeyOf('{"secret_key":12}')).toBeNull();
  });

  it('secretKeyOf: of duplicate names the last, as JSON.parse (and so the server) takes it', () => {
    const body = '{"secret_key":"sk_test_first","secret\\u005fkey":"sk_test_second"}';
    expect((JSON.parse(body) as { secret_key: string }).secret_key).toBe('sk_test_second');
    expect(secretKeyOf(body)).toBe('sk_test_second');
  });
});
