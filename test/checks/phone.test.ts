import { describe, expect, it } from 'vitest';
import { checkPhone } from '../../src/checks/phone.js';

describe('checkPhone', () => {
  it('checkPhone: a US local number is read with the site country', () => {
    expect(checkPhone('(212) 664-7665', 'US')).toEqual({
      success: true, valid: true, phone: '+12126647665', phone_international: '+1 212 664 7665',
      phone_national: '(212) 664-7665', country_code: 'US', country_name: 'United States of America',
      type: 'fixed_line_or_mobile', carrier: null, in_country: true,
    });
  });

  it('checkPhone: an international number ignores the site country and reports in_country false', () => {
    expect(checkPhone('+1 212-664-7665', 'GB')).toMatchObject({ valid: true, phone: '+12126647665', country_code: 'US', in_country: false });
    expect(checkPhone('+12126647665', null)).toMatchObject({ valid: true, country_code: 'US', in_country: null });
  });

  it('checkPhone: a GB London number on a GB site is a fixed line', () => {
    expect(checkPhone('020 7946 0018', 'GB')).toMatchObject({ valid: true, phone: '+442079460018',
      phone_international: '+44 20 7946 0018', phone_national: '020 7946 0018', country_code: 'GB',
      country_name: 'United Kingdom', type: 'fixed_line', in_country: true });
  });

  it('checkPhone: FR mobile vs fixed line', () => {
    expect(checkPhone('06 12 34 56 78', 'FR')).toMatchObject({ valid: true, phone: '+33612345678', type: 'mobile' });
    expect(checkPhone('+33 1 42 68 53 00', 'US')).toMatchObject({ valid: true, country_code: 'FR', type: 'fixed_line', in_country: false });
  });

  it('checkPhone: DE and JP numbers', () => {
    expect(checkPhone('+49 1512 3456789', 'DE')).toMatchObject({ valid: true, phone: '+4915123456789', type: 'mobile', in_country: true });
    expect(checkPhone('030 123456', 'DE')).toMatchObject({ valid: true, phone: '+4930123456', type: 'fixed_line' });
    expect(checkPhone('090-1234-5678', 'JP')).toMatchObject({ valid: true, phone: '+819012345678', type: 'mobile', country_name: 'Japan' });
    expect(checkPhone('03-1234-5678', 'JP')).toMatchObject({ valid: true, phone: '+81312345678', type: 'fixed_line' });
  });

  it('checkPhone: an international number written with the 00 prefix (0044 20 7946 0018) is read as +44 on a site whose country dials out with another prefix', () => {
    for (const site of ['US', 'CA', 'JP', 'AU', null]) {
      for (const typed of ['0044 20 7946 0018', '00442079460018', '(0044) 20-7946-0018']) {
        expect(checkPhone(typed, site), `${typed} on ${site}`).toMatchObject({ success: true, valid: true, phone: '+442079460018', country_code: 'GB', type: 'fixed_line' });
      }
    }
    // Where 00 is the country's own prefix, as before; a national number stays national.
    expect(checkPhone('0033 1 42 68 53 00', 'DE')).toMatchObject({ valid: true, phone: '+33142685300' });
    expect(checkPhone('(212) 664-7665', 'US')).toMatchObject({ valid: true, phone: '+12126647665' });
    // 00 followed by no valid number is still invalid.
    expect(checkPhone('00 12', 'US')).toMatchObject({ valid: false });
  });

  it('checkPhone: toll-free type and lower-case site country', () => {
    expect(checkPhone('1-800-555-0100', 'us')).toMatchObject({ valid: true, type: 'toll_free', in_country: true });
  });

  it('checkPhone: a parseable but unassigned number is invalid yet keeps its E.164 form', () => {
    const r = checkPhone('+1 212 000 0000', 'US');
    expect(r).toMatchObject({ success: true, valid: false, phone: '+12120000000', type: null });
  });

  it('checkPhone: an invalid national number claims no country: the site\'s was only assumed to read it', () => {
    // A US number written as a local one on a GB site: read as a GB number, which it is not.
    expect(checkPhone('(212) 664-7665', 'GB')).toMatchObject({ success: true, valid: false, country_code: null, country_name: null, in_country: null });
    // The same number valid on a US site keeps its country.
    expect(checkPhone('(212) 664-7665', 'US')).toMatchObject({ valid: true, country_code: 'US', in_country: true });
  });

  it.each(['hello', 'call me maybe', '+', '+999', '12', '', '   ', '💥📞', '\u0000\u0001', '<script>alert(1)</script>',
    '9'.repeat(5000), '+1 212 664 7665 '.repeat(100)].map((s) => [s.slice(0, 30), s]))(
    'checkPhone: garbage %j is checked and invalid', (_label, input) => {
      const r = checkPhone(input, 'US');
      expect(r).toMatchObject({ success: true, valid: false, phone: null, type: null, in_country: null });
    });

  it('checkPhone: a national number without any site country could not be checked', () => {
    expect(checkPhone('(212) 664-7665', null)).toMatchObject({ success: false, valid: false, phone: null });
    expect(checkPhone('(212) 664-7665', 'XX')).toMatchObject({ success: false, valid: false });
  });

  it('checkPhone: never throws on non-string input at runtime', () => {
    expect(checkPhone(42 as unknown as string, 'US').valid).toBe(false);
    expect(checkPhone(null as unknown as string, null).valid).toBe(false);
  });
});

describe('checkPhone against libphonenumber', () => {
  it('checkPhone: valid and type are what isValid() and getType() say, for every country\'s example and a changed copy', async () => {
    const { getCountries, getExampleNumber, parsePhoneNumberFromString } = await import('libphonenumber-js/max');
    const examples = (await import('libphonenumber-js/mobile/examples')).default;
    let compared = 0;
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples)?.number;
      if (!example) continue;
      // The example, and the same with its last digits changed (often still possible, no longer valid).
      for (const input of [example, `${example.slice(0, -3)}000`, `${example.slice(0, -2)}99`]) {
        const parsed = parsePhoneNumberFromString(input);
        const result = checkPhone(input, 'US');
        if (!parsed?.isPossible()) continue;
        const valid = parsed.isValid();
        expect({ input, valid: result.valid, type: result.type }).toEqual({ input, valid, type: valid ? (parsed.getType()?.toLowerCase() ?? null) : null });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(400);
  });
});
