import { describe, expect, it } from 'vitest';
import { readEmailDomain } from '../../src/checks/email-domain.js';

describe('readEmailDomain', () => {
  it('readEmailDomain: plain ASCII is lower-cased and nothing more', () => {
    expect(readEmailDomain('Acme-Widgets.IO')).toEqual({ name: 'acme-widgets.io', ascii: 'acme-widgets.io' });
    expect(readEmailDomain('0x7f.1')).toEqual({ name: '0x7f.1', ascii: '0x7f.1' });
    expect(readEmailDomain('example.com.')).toEqual({ name: 'example.com.', ascii: 'example.com.' });
  });

  it('readEmailDomain: full-width letters and dots map to ASCII (IDNA / NFKC)', () => {
    expect(readEmailDomain('ｅｘａｍｐｌｅ．ｃｏｍ')).toEqual({ name: 'example.com', ascii: 'example.com' });
    expect(readEmailDomain('ＧＭＡＩＬ。ＣＯＭ')).toEqual({ name: 'gmail.com', ascii: 'gmail.com' });
  });

  it('readEmailDomain: punycode and Unicode spellings read as one name', () => {
    const both = { name: 'bücher.example', ascii: 'xn--bcher-kva.example' };
    expect(readEmailDomain('xn--bcher-kva.example')).toEqual(both);
    expect(readEmailDomain('XN--BCHER-KVA.example')).toEqual(both);
    expect(readEmailDomain('Bücher.example')).toEqual(both);
  });

  it('readEmailDomain: a name IDNA rejects, or one that reads as an IPv4 address, has no ASCII spelling', () => {
    expect(readEmailDomain('xn--zz.com')).toEqual({ name: 'xn--zz.com', ascii: null });
    expect(readEmailDomain('0x7f．1')).toEqual({ name: '0x7f．1', ascii: null });
    expect(readEmailDomain('ü ber.com').ascii).toBeNull();
  });
});
