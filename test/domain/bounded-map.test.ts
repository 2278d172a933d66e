import { describe, expect, it } from 'vitest';
import { addBounded } from '../../src/domain/bounded-map.js';

describe('addBounded', () => {
  it('addBounded: below the bound, adds without dropping anything', () => {
    const m = new Map([['a', 1]]);
    addBounded(m, 'b', 2, 3);
    expect([...m]).toEqual([['a', 1], ['b', 2]]);
  });

  it('addBounded: at the bound, drops the oldest entry (the first inserted) and adds at the end', () => {
    const m = new Map([['a', 1], ['b', 2], ['c', 3]]);
    addBounded(m, 'd', 4, 3);
    expect([...m]).toEqual([['b', 2], ['c', 3], ['d', 4]]);
  });

  it('addBounded: an entry moved to the end (re-inserted on a hit) outlives older ones', () => {
    const m = new Map([['a', 1], ['b', 2]]);
    m.delete('a');
    m.set('a', 1);
    addBounded(m, 'c', 3, 2);
    expect([...m.keys()]).toEqual(['a', 'c']);
  });
});
