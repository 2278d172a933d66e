import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VtrError } from '../../src/domain/errors.js';
import { validate } from '../../src/server/validate.js';

const schema = z.strictObject({
  name: z.string().min(1).max(5),
  tags: z.array(z.string().min(1)).max(2).optional(),
  n: z.number().optional(),
  own: z.string({ error: 'its own message' }).optional(),
});

function refusal(value: unknown): { message: string; field: unknown } {
  try {
    validate(schema, value);
  } catch (err) {
    expect(err).toBeInstanceOf(VtrError);
    return { message: (err as VtrError).message, field: (err as VtrError).details?.field };
  }
  throw new Error('accepted');
}

describe('validate', () => {
  it('validate: answers the parsed value when it fits', () => {
    expect(validate(schema, { name: 'ok', n: 1 })).toEqual({ name: 'ok', n: 1 });
  });

  it('validate: names the field and says what it wanted, in plain words', () => {
    expect(refusal({ name: '' })).toEqual({ message: 'name: must not be empty', field: 'name' });
    expect(refusal({ name: 'toolong' }).message).toBe('name: must have at most 5 characters');
    expect(refusal({ name: 'a', tags: ['a', 'b', 'c'] }).message).toBe('tags: must have at most 2 items');
    expect(refusal({ name: 'a', tags: [''] })).toEqual({ message: 'tags.0: must not be empty', field: 'tags.0' });
    expect(refusal({ name: 5 }).message).toBe('name: expected a string');
    expect(refusal({ name: 'a', tags: 'x' }).message).toBe('tags: expected an array');
  });

  it("validate: a schema's own message wins; an unknown field is named", () => {
    expect(refusal({ name: 'a', own: 5 }).message).toBe('own: its own message');
    expect(refusal({ name: 'a', colour: 'red' })).toEqual({ message: 'colour: unknown field', field: 'colour' });
  });
});
