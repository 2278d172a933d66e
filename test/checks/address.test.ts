import { describe, expect, it } from 'vitest';
import { checkPhone } from '../../src/checks/phone.js';
import { checkAddress, toCountryCode } from '../../src/checks/address.js';

describe('checkAddress', () => {
  it('checkAddress: a full US address normalises state and country', () => {
    expect(checkAddress({ address1: '350 Fifth Avenue', address2: 'Floor 20', city: 'New York', state: 'New York',
      country: 'United States', postal_code: '10118' }, 'US')).toEqual({
      success: true, valid: true, address1: '350 Fifth Avenue', address2: 'Floor 20', city: 'New York',
      state: 'New York', state_code: 'NY', country_code: 'US', country_name: 'United States of America',
      postal_code: '10118', postal_code_valid: true, in_country: true,
    });
  });

  it('checkAddress: invisible formatting characters pasted with a field (bidi marks, zero-width space) are dropped', () => {
    expect(checkAddress({ city: '\u202aNew York\u202c', state: '\u200bNew York', country: '\u202aUnited States\u202c', postal_code: '10001\u200e' }, 'US')).toMatchObject({
      valid: true, city: 'New York', state: 'New York', state_code: 'NY', country_code: 'US', postal_code: '10001', postal_code_valid: true, in_country: true,
    });
  });

  it('toCountryCode: ISO 3166 names with a qualifier, in parentheses or after a comma, become alpha-2', () => {
    const cases: [string, string][] = [
      ['United Kingdom of Great Britain and Northern Ireland', 'GB'], ['United States of America (the)', 'US'], ['Netherlands (the)', 'NL'],
      ['Bolivia (Plurinational State of)', 'BO'], ['Bolivia, Plurinational State of', 'BO'], ['Iran (Islamic Republic of)', 'IR'],
      ['Iran, Islamic Republic of', 'IR'], ['Venezuela (Bolivarian Republic of)', 'VE'], ['Tanzania, United Republic of', 'TZ'],
      ['Micronesia (Federated States of)', 'FM'], ['Korea (the Republic of)', 'KR'], ["Korea (the Democratic People's Republic of)", 'KP'],
      ["Korea, Democratic People's Republic of", 'KP'], ['Congo (the Democratic Republic of the)', 'CD'], ['Congo, The Democratic Republic of the', 'CD'],
      ['Congo, Democratic Republic of', 'CD'], ['Congo (the)', 'CG'], ['Congo', 'CG'], ['Palestine, State of', 'PS'],
      ['Macedonia, the Former Yugoslav Republic of', 'MK'], ['Saint Helena, Ascension and Tristan da Cunha', 'SH'], ['Virgin Islands (British)', 'VG'],
    ];
    for (const [name, code] of cases) expect(toCountryCode(name), name).toBe(code);
  });

  it('toCountryCode: the English names browsers show (Intl.DisplayNames: "&", "St.", curly apostrophes) become alpha-2', () => {
    const cases: [string, string][] = [
      ['Bosnia & Herzegovina', 'BA'], ['Falkland Islands', 'FK'], ['Heard & McDonald Islands', 'HM'], ['Vatican City', 'VA'],
      ['Macao SAR China', 'MO'], ['Palestinian Territories', 'PS'], ['St. Kitts & Nevis', 'KN'], ['St Kitts and Nevis', 'KN'],
      ['St. Pierre & Miquelon', 'PM'], ['St. Vincent & Grenadines', 'VC'], ['São Tomé & Príncipe', 'ST'],
      ['South Georgia & South Sandwich Islands', 'GS'], ['Svalbard & Jan Mayen', 'SJ'], ['Turks & Caicos Islands', 'TC'],
      ['U.S. Outlying Islands', 'UM'], ['Wallis & Futuna', 'WF'], ['Caribbean Netherlands', 'BQ'], ['St. Barthélemy', 'BL'],
      ['St. Martin', 'MF'], ['Côte d’Ivoire', 'CI'], ['Lao People’s Democratic Republic', 'LA'],
    ];
    for (const [name, code] of cases) expect(toCountryCode(name), name).toBe(code);
  });

  it('toCountryCode: names checkout forms list (a leading "The", "Republic of Ireland", "Hong Kong SAR", the short names browsers show) become alpha-2', () => {
    const cases: [string, string][] = [
      ['Republic of Ireland', 'IE'], ['Hong Kong SAR', 'HK'], ['Hong Kong S.A.R.', 'HK'], ['Macao SAR', 'MO'], ['Macau SAR', 'MO'],
      ['The Bahamas', 'BS'], ['The Gambia', 'GM'], ['The Philippines', 'PH'], ['the Netherlands', 'NL'], ['The Czech Republic', 'CZ'],
      ['Bosnia', 'BA'], ['Cocos Islands', 'CC'], ['Vatican', 'VA'], ['East Timor', 'TL'], ['Slovak Republic', 'SK'],
      ['DR Congo', 'CD'], ['DRC', 'CD'], ['Mainland China', 'CN'], ['China mainland', 'CN'], ['Turks and Caicos', 'TC'],
    ];
    for (const [name, code] of cases) expect(toCountryCode(name), name).toBe(code);
    expect(checkAddress({ city: 'Cork', country: 'Republic of Ireland', postal_code: 'T12 XY45' }, 'IE')).toMatchObject({ valid: true, country_code: 'IE', in_country: true });
  });

  it('toCountryCode: "Korea" alone, as address forms write it, is the Republic of Korea; the North is named as such', () => {
    for (const name of ['Korea', 'korea', 'KOREA', 'Korea, South', 'Korea (South)', 'South Korea']) expect(toCountryCode(name), name).toBe('KR');
    for (const name of ['North Korea', 'Korea, North', "Korea, Democratic People's Republic of"]) expect(toCountryCode(name), name).toBe('KP');
    expect(checkAddress({ country: 'Korea', postal_code: '03051' }, 'US')).toMatchObject({ valid: true, country_code: 'KR', postal_code_valid: true });
  });

  it('toCountryCode: names, aliases and alpha-2/alpha-3 codes become alpha-2', () => {
    const cases: [string, string | null][] = [['US', 'US'], ['us', 'US'], ['USA', 'US'], ['United States of America', 'US'],
      ['united kingdom', 'GB'], ['UK', 'GB'], ['GBR', 'GB'], ['Great Britain', 'GB'], ['England', 'GB'],
      ['Deutschland', 'DE'], ['germany', 'DE'], ['fra', 'FR'], ['Côte d’Ivoire', 'CI'], ['Canada', 'CA'],
      ['U.S.A.', 'US'], ['Narnia', null], ['ZZ', null], ['', null],
      // Codes in everyday use that ISO 3166 spells otherwise: the EU's for Greece, Saudi Arabia's and South Africa's.
      ['EL', 'GR'], ['el', 'GR'], ['KSA', 'SA'], ['K.S.A.', 'SA'], ['RSA', 'ZA'], ['XX', null], ['ELL', null]];
    for (const [input, want] of cases) expect(toCountryCode(input), input).toBe(want);
  });

  it('checkAddress: state names and codes map to codes for US and CA', () => {
    expect(checkAddress({ state: 'ny', country: 'US' }, null)).toMatchObject({ state: 'New York', state_code: 'NY' });
    expect(checkAddress({ state: 'Ontario', country: 'CA' }, null)).toMatchObject({ state: 'Ontario', state_code: 'ON' });
    expect(checkAddress({ state: 'Québec', country: 'Canada' }, null)).toMatchObject({ state_code: 'QC', country_code: 'CA' });
    expect(checkAddress({ state: 'Bavaria', country: 'DE' }, null)).toMatchObject({ state: 'Bavaria', state_code: null, valid: true });
  });

  it('checkAddress: everyday names of US/CA states map to their codes (Washington, D.C., PEI, Newfoundland, Yukon Territory)', () => {
    const cases: [string, string, string][] = [['Washington, D.C.', 'DC', 'US'], ['Washington DC', 'DC', 'US'], ['D.C.', 'DC', 'US'],
      ['PEI', 'PE', 'CA'], ['P.E.I.', 'PE', 'CA'], ['Newfoundland', 'NL', 'CA'], ['Yukon Territory', 'YT', 'CA'],
      ['US Virgin Islands', 'VI', 'VI'], ['Washington', 'WA', 'US']];
    for (const [state, code, country] of cases) expect(checkAddress({ state }, 'US'), state).toMatchObject({ state_code: code, country_code: country });
  });

  it('checkAddress: a US/CA state gives the country when none is sent', () => {
    expect(checkAddress({ city: 'Toronto', state: 'Ontario' }, 'US')).toMatchObject({ country_code: 'CA', in_country: false });
    expect(checkAddress({ city: 'Austin', state: 'TX' }, null)).toMatchObject({ country_code: 'US', in_country: null });
  });

  it('checkAddress: a US territory written as a state is the territory\'s country, as its phone number is', () => {
    const cases: Array<[string, string, string]> = [
      ['Puerto Rico', 'PR', '+1 787 722 1234'], ['PR', 'PR', '+1 787 234 5678'], ['Guam', 'GU', '+1 671 300 1234'],
      ['U.S. Virgin Islands', 'VI', '+1 340 642 1234'], ['American Samoa', 'AS', '+1 684 733 1234'],
      ['Northern Mariana Islands', 'MP', '+1 670 234 5678'],
    ];
    for (const [state, code, phone] of cases) {
      for (const country of [undefined, 'US', 'United States', code]) {
        const a = checkAddress({ city: 'X', state, country }, 'US');
        expect(a, `${state} ${String(country)}`).toMatchObject({ valid: true, state_code: code, country_code: code, in_country: false });
        const p = checkPhone(phone, 'US');
        expect([a.country_code, a.in_country], phone).toEqual([p.country_code, p.in_country]);
      }
    }
    expect(checkAddress({ city: 'San Juan', state: 'Puerto Rico', postal_code: '00901' }, 'PR')).toMatchObject({
      country_code: 'PR', country_name: 'Puerto Rico', state: 'Puerto Rico', postal_code_valid: true, in_country: true,
    });
    expect(checkAddress({ address1: '1 Calle Fortaleza, San Juan, PR 00901' }, null)).toMatchObject({ state_code: 'PR', country_code: 'PR', postal_code: '00901' });
    // A territory's address names no other state; armed forces codes stay US.
    expect(checkAddress({ state: 'Texas', country: 'PR' }, null)).toMatchObject({ state: 'Texas', state_code: null, country_code: 'PR' });
    expect(checkAddress({ state: 'AE' }, null)).toMatchObject({ state_code: 'AE', country_code: 'US' });
    expect(checkAddress({ state: 'Texas' }, 'PR')).toMatchObject({ state_code: 'TX', country_code: 'US', in_country: false });
  });

  it('checkAddress: with no country or state the address is read in the site country', () => {
    expect(checkAddress({ city: 'London', postal_code: 'sw1a 1aa' }, 'GB')).toMatchObject({
      country_code: 'GB', postal_code: 'SW1A 1AA', postal_code_valid: true, in_country: true, valid: true });
    expect(checkAddress({ city: 'London' }, null)).toMatchObject({ country_code: null, in_country: null, valid: true });
  });

  it.each([
    ['US', '10001', true], ['US', '10001-1234', true], ['US', '1000', false], ['US', 'ABCDE', false],
    ['GB', 'SW1A 1AA', true], ['GB', 'EC1A1BB', true], ['GB', '12345', false],
    ['CA', 'K1A 0B1', true], ['CA', 'k1a0b1', true], ['CA', '12345', false],
    ['FR', '75008', true], ['DE', '1011', false],
  ])('checkAddress: %s postal code %s valid=%s', (country, postal, ok) => {
    const r = checkAddress({ country, postal_code: postal }, null);
    expect(r.postal_code_valid).toBe(ok);
    expect(r.valid).toBe(ok);
  });

  it('checkAddress: a postal code typed in full-width digits (Japanese input) is read as the same code', () => {
    expect(checkAddress({ country: 'Japan', postal_code: '１００－０００１' }, 'JP')).toMatchObject({
      postal_code: '100-0001', postal_code_valid: true, valid: true });
    expect(checkAddress({ country: 'US', postal_code: '１０００１' }, 'US')).toMatchObject({
      postal_code: '10001', postal_code_valid: true, valid: true });
  });

  it.each([
    ['JP', '1000001', '100-0001'], ['PL', '00950', '00-950'], ['PT', '1000001', '1000-001'], ['US', '941051234', '94105-1234'],
  ])('checkAddress: %s postal code %s, written without its separator, is valid and read as %s', (country, postal, canonical) => {
    expect(checkAddress({ country, postal_code: postal }, null)).toMatchObject({ postal_code: canonical, postal_code_valid: true, valid: true });
  });

  it.each([
    ['GB', ['SW1A1AA', 'sw1a 1aa', 'SW1A-1AA', 'UK-SW1A 1AA'], 'SW1A 1AA'],
    ['GB', ['EC1A1BB', 'ec1a 1bb'], 'EC1A 1BB'],
    ['CA', ['M5V2T6', 'm5v-2t6', 'M5V 2T6'], 'M5V 2T6'],
    ['SE', ['SE-114 55', 'S-114 55', '11455', '114 55', 'SE 11455'], '114 55'],
    ['LU', ['L-1234', 'LU-1234', '1234', 'L 1234'], '1234'],
    ['DE', ['D-10115', 'DE-10115', '10115'], '10115'],
    ['CH', ['CH-8001', '8001'], '8001'],
    ['FI', ['FI-00100', 'FIN-00100', '00100'], '00100'],
    ['NL', ['1012AB', '1012 ab', 'NL-1012 AB', '1012-AB'], '1012 AB'],
    ['IE', ['D02X285', 'd02 x285', 'D02-X285'], 'D02 X285'],
    ['CZ', ['11000', '110 00'], '110 00'],
    ['GR', ['10431', '104 31'], '104 31'],
    ['JP', ['1000001', '100-0001', '100 0001'], '100-0001'],
    ['PL', ['00950', '00-950', 'PL-00-950'], '00-950'],
    ['BR', ['01310100', '01310-100'], '01310-100'],
    ['US', ['941051234', '94105-1234', '94105 1234'], '94105-1234'],
    ['MT', ['VLT1117', 'vlt 1117'], 'VLT 1117'],
    ['HR', ['HR-10000', '10000'], '10000'],
    ['FR', ['75008', '75 008', 'F-75008'], '75008'],
    ['IN', ['110001', '110 001'], '110001'],
    ['LV', ['LV-1050', '1050', 'lv 1050'], 'LV-1050'],
    ['LT', ['LT-01103', '01103'], 'LT-01103'],
  ] as const)('checkAddress: a valid %s postal code is reported in one form, whatever form was typed (%j → %s)', (country, typed, canonical) => {
    for (const postal of typed) {
      expect(checkAddress({ country, postal_code: postal }, null), postal).toMatchObject({ postal_code: canonical, postal_code_valid: true, valid: true });
    }
  });

  it.each([['AR', '1002', '1002'], ['AR', 'C1002AAA', 'C1002AAA'], ['NI', '11001', '11001'], ['AR', 'AR-1002', '1002']])(
    'checkAddress: %s postal code %s, in the form the country\'s checkout forms ask for, is valid and read as %s', (country, postal, canonical) => {
      expect(checkAddress({ country, postal_code: postal }, null)).toMatchObject({ postal_code: canonical, postal_code_valid: true, valid: true });
    });

  it.each([['AR', '100'], ['AR', '10021'], ['NI', '1100'], ['NI', '110011']])(
    'checkAddress: %s postal code %s, of no form of the country, stays invalid', (country, postal) => {
      expect(checkAddress({ country, postal_code: postal }, null)).toMatchObject({ postal_code: postal, postal_code_valid: false, valid: false });
    });

  it.each([['JP', '100001'], ['JP', '10000012'], ['PL', '0095'], ['US', '9410512']])(
    'checkAddress: %s postal code %s with the wrong number of digits stays invalid', (country, postal) => {
      expect(checkAddress({ country, postal_code: postal }, null)).toMatchObject({ postal_code_valid: false, valid: false });
    });

  it.each([
    ['CA', 'm5v-2t6', 'M5V 2T6'], ['GB', 'sw1a-1aa', 'SW1A 1AA'], ['DE', 'D-10115', '10115'], ['DE', 'de-10115', '10115'],
    ['CH', 'CH-8001', '8001'], ['AT', 'A-1010', '1010'], ['FR', 'F-75001', '75001'], ['IT', 'I-00100', '00100'],
    ['SE', 'S-111 22', '111 22'], ['NL', 'NL-1012 AB', '1012 AB'], ['BE', 'B-1000', '1000'], ['DK', 'DK-1050', '1050'],
    ['ES', 'E-28001', '28001'], ['PL', 'PL-00-950', '00-950'], ['NO', 'N-0150', '0150'], ['FI', 'FIN-00100', '00100'],
    ['DE', 'D 10115', '10115'], ['DE', 'DE 10115', '10115'], ['CH', 'CH 8001', '8001'], ['SE', 'S 111 22', '111 22'], ['NL', 'NL 1012 AB', '1012 AB'],
  ])('checkAddress: %s postal code %s, in a form people write, is valid and read as %s', (country, postal, normalised) => {
    expect(checkAddress({ country, postal_code: postal }, null)).toMatchObject({ postal_code: normalised, postal_code_valid: true, valid: true });
  });

  it.each([['AZ', 'AZ1000', '1000'], ['AZ', 'az 1000', '1000'], ['MD', 'MD2001', '2001'], ['MD', 'MD-2001', '2001'], ['LV', 'LV1050', 'LV-1050']])(
    'checkAddress: %s postal code %s, its country\'s code written before it with no separator, is valid and read as %s', (country, postal, canonical) => {
      expect(checkAddress({ country, postal_code: postal }, null)).toMatchObject({ postal_code: canonical, postal_code_valid: true, valid: true });
    });

  it.each([['AZ', 'MD1000'], ['MD', 'AZ2001'], ['AZ', 'AZ10000'], ['DE', 'D10115'], ['AZ', 'AZAZ1000']])(
    'checkAddress: %s postal code %s, glued to another prefix or the wrong length, stays invalid', (country, postal) => {
      expect(checkAddress({ country, postal_code: postal }, null)).toMatchObject({ postal_code: postal, postal_code_valid: false, valid: false });
    });

  it('checkAddress: GB postal code GIR 0AA (Girobank\'s, a real non-geographic code) is valid in either spacing', () => {
    for (const postal of ['GIR 0AA', 'gir0aa']) {
      expect(checkAddress({ country: 'GB', postal_code: postal }, null), postal).toMatchObject({ postal_code: 'GIR 0AA', postal_code_valid: true, valid: true });
    }
    expect(checkAddress({ country: 'GB', postal_code: 'GIR 0AB' }, null)).toMatchObject({ postal_code_valid: false, valid: false });
  });

  it.each([['AT', 'D-1010'], ['DE', 'CH 80331'], ['AT', 'D 1010'], ['DE', 'CH-80331'], ['CH', 'A-8001'], ['DE', 'AT-10115'], ['FR', 'B-75001']])(
    'checkAddress: %s postal code %s, prefixed with another country, stays invalid', (country, postal) => {
      expect(checkAddress({ country, postal_code: postal }, null)).toMatchObject({ postal_code: postal, postal_code_valid: false, valid: false });
    });

  it('checkAddress: postal_code_valid is null without a rule, a code, or a country', () => {
    expect(checkAddress({ country: 'HK', postal_code: '999077' }, null).postal_code_valid).toBeNull();
    expect(checkAddress({ country: 'US' }, null).postal_code_valid).toBeNull();
    expect(checkAddress({ postal_code: '10001' }, null)).toMatchObject({ postal_code_valid: null, country_code: null });
  });

  it('checkAddress: an unknown country makes the address invalid', () => {
    expect(checkAddress({ city: 'Cair Paravel', country: 'Narnia' }, 'US')).toMatchObject({
      valid: false, country_code: null, country_name: null, in_country: null });
  });

  it('checkAddress: in_country compares with the site country', () => {
    expect(checkAddress({ country: 'FR' }, 'FR').in_country).toBe(true);
    expect(checkAddress({ country: 'FR' }, 'DE').in_country).toBe(false);
    expect(checkAddress({ country: 'FR' }, null).in_country).toBeNull();
  });

  it('checkAddress: a one-line US address in address1 fills city, state and postal code', () => {
    expect(checkAddress({ address1: '1600 Pennsylvania Ave NW, Washington, DC 20500' }, 'US')).toMatchObject({
      address1: '1600 Pennsylvania Ave NW, Washington, DC 20500', city: 'Washington', state_code: 'DC',
      postal_code: '20500', postal_code_valid: true, country_code: 'US', valid: true });
  });

  it('checkAddress: a one-line US address with a ZIP+4 keeps the whole ZIP+4 as its postal code', () => {
    expect(checkAddress({ address1: '1 Main St, Springfield, IL 62701-1234' }, 'US')).toMatchObject({
      city: 'Springfield', state_code: 'IL', postal_code: '62701-1234', postal_code_valid: true, valid: true });
  });

  it('checkAddress: an empty address is checked and invalid', () => {
    expect(checkAddress({}, 'US')).toMatchObject({ success: true, valid: false });
    expect(checkAddress({ city: '   ' }, 'US')).toMatchObject({ valid: false, city: null });
  });

  it('checkAddress: an empty address reports no country: the site\'s is not in it, so in_country is null, not true', () => {
    for (const input of [{}, { city: '   ', postal_code: '' }]) {
      expect(checkAddress(input, 'US'), JSON.stringify(input)).toMatchObject({ valid: false, country_code: null, country_name: null, in_country: null });
    }
  });

  it('checkAddress: hostile input never throws', () => {
    const huge = 'x'.repeat(5000);
    expect(checkAddress({ address1: huge, country: 'US' }, 'US')).toMatchObject({ valid: false, address1: null });
    expect(checkAddress(null as unknown as object, 'US').valid).toBe(false);
    expect(checkAddress({ city: 42, state: ['x'], country: {} } as unknown as object, 'US').valid).toBe(false);
    expect(() => checkAddress({ address1: '💥\u0000', state: '💥', country: '💥', postal_code: '💥' }, '💥')).not.toThrow();
    expect(checkAddress({ address1: '1 Main St '.repeat(99) }, 'US').success).toBe(true);
  });
});
