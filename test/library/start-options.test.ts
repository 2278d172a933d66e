// startEmulator's options as a JavaScript test suite passes them: from the environment, from JSON,
// misspelt. What `vtr serve` would refuse is refused, naming the option.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';

describe('startEmulator options', () => {
  it('startEmulator: an empty or blank adminToken is refused, not an open management API', async () => {
    await expect(startEmulator({ adminToken: '', listen: false })).rejects.toThrow(/^startEmulator: adminToken: must not be empty \(an environment variable left unset\?\)/);
    await expect(startEmulator({ adminToken: '  ', listen: false })).rejects.toThrow(/^startEmulator: adminToken: must not be empty or blank/);
  });

  it('startEmulator: options that are not an object (null, a string) are refused, not read as no options or a crash', async () => {
    await expect(startEmulator(null as never)).rejects.toThrow(/^startEmulator: expected an object of options \(or none\), got null/);
    await expect(startEmulator('frozen' as never)).rejects.toThrow(/^startEmulator: expected an object of options \(or none\), got "frozen"/);
  });

});
