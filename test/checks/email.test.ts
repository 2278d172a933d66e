import { describe, expect, it } from 'vitest';
import { checkEmail } from '../../src/checks/email.js';

describe('checkEmail', () => {
  it('checkEmail: a plain business address', () => {
    expect(checkEmail('Jane.Doe@Acme-Widgets.io', 'Jane Doe')).toEqual({
      success: true, valid: true, email: 'Jane.Doe@Acme-Widgets.io', local_part: 'Jane.Doe',
      normalized_email: 'jane.doe@acme-widgets.io', domain: 'acme-widgets.io', domain_tld: 'io',
      free: false, disposable: false, business: true, role: false, name_match: true, digits_count: 0,
    });
  });

  it('checkEmail: normalisation lower-cases and drops a +tag', () => {
    expect(checkEmail('  Bob+Newsletter@Example.ORG ').normalized_email).toBe('bob@example.org');
    expect(checkEmail('bob+a+b@fastmail.com').normalized_email).toBe('bob@fastmail.com');
  });

  it('checkEmail: normalised is lower case without +tag only, no provider rules (contract §3)', () => {
    expect(checkEmail('J.Smith+promo@Gmail.com').normalized_email).toBe('j.smith@gmail.com');
    expect(checkEmail('j.smith@googlemail.com').normalized_email).toBe('j.smith@googlemail.com');
    expect(checkEmail('j.smith@outlook.com').normalized_email).toBe('j.smith@outlook.com');
  });

  it('checkEmail: invisible formatting characters pasted with an address (bidi marks, zero-width space) are dropped before it is checked', () => {
    for (const pasted of ['\u202ajohn@gmail.com\u202c', 'john@gmail.com\u200e', '\u200bJohn@Gmail.com', 'jo\u00adhn@gmail.com', '\u2066john@gmail.com\u2069']) {
      expect(checkEmail(pasted), JSON.stringify(pasted)).toMatchObject({
        valid: true, email: pasted.replace(/[\u202a\u202c\u200e\u200b\u00ad\u2066\u2069]/g, ''), normalized_email: 'john@gmail.com', domain: 'gmail.com', free: true, business: false,
      });
    }
  });

  it('checkEmail: a quoted local part keeps its quotes when its +tag is dropped, so the normalised address is still an address', () => {
    expect(checkEmail('"John+news"@Example.com').normalized_email).toBe('"john"@example.com');
    expect(checkEmail('"John Doe+x"@example.com').normalized_email).toBe('"john doe"@example.com');
    expect(checkEmail('"a@b"@example.com').normalized_email).toBe('"a@b"@example.com');
    // A tag after an escaping backslash would leave the closing quote escaped: kept whole.
    expect(checkEmail('"a\\+b"@example.com').normalized_email).toBe('"a\\+b"@example.com');
  });

  it('checkEmail: gmail.com and yahoo.com are free, not business', () => {
    expect(checkEmail('someone@gmail.com')).toMatchObject({ valid: true, free: true, disposable: false, business: false });
    expect(checkEmail('someone@yahoo.com')).toMatchObject({ free: true, business: false });
  });

  it('checkEmail: mailinator.com (and its subdomains) are disposable, not free', () => {
    expect(checkEmail('test@mailinator.com')).toMatchObject({ valid: true, disposable: true, free: false, business: false });
    expect(checkEmail('test@eu.mailinator.com').disposable).toBe(true);
  });

  it('checkEmail: reserved example domains count as business, not free', () => {
    expect(checkEmail('alice@example.com')).toMatchObject({ valid: true, free: false, business: true });
  });

  it('checkEmail: role accounts', () => {
    for (const e of ['admin@acme.io', 'INFO@acme.io', 'support+x@acme.io', 'no-reply@acme.io', 'sales@acme.io', 'noreply@acme.io']) {
      expect(checkEmail(e).role, e).toBe(true);
    }
    expect(checkEmail('jane@acme.io').role).toBe(false);
  });

  it('checkEmail: name_match is null without a name, accent- and case-insensitive with one', () => {
    expect(checkEmail('zoe.martin@acme.io').name_match).toBeNull();
    expect(checkEmail('zoe.martin@acme.io', '   ').name_match).toBeNull();
    expect(checkEmail('zoe.martin@acme.io', 'J.').name_match).toBeNull();
    expect(checkEmail('zoe.martin@acme.io', 'Zoë Martin').name_match).toBe(true);
    expect(checkEmail('ZMARTIN77@acme.io', 'zoe martin').name_match).toBe(true);
    expect(checkEmail('jfrançois@acme.io', 'François Dupont').name_match).toBe(true);
    expect(checkEmail('xyz@acme.io', 'Zoë Martin').name_match).toBe(false);
  });

  it('checkEmail: digits_count counts digits in the local part', () => {
    expect(checkEmail('bob1987x2@gmail.com').digits_count).toBe(5);
    expect(checkEmail('bob@123mail.com').digits_count).toBe(0);
  });

  it('checkEmail: domain_tld is the last label', () => {
    expect(checkEmail('a@b.co.uk')).toMatchObject({ domain: 'b.co.uk', domain_tld: 'uk' });
  });

  it('checkEmail: a domain typed in full-width characters is the same domain as its ASCII spelling', () => {
    const plain = checkEmail('jane@example.com');
    expect(checkEmail('jane@ｅｘａｍｐｌｅ．ｃｏｍ')).toEqual({ ...plain, email: 'jane@ｅｘａｍｐｌｅ．ｃｏｍ' });
    expect(checkEmail('Jane@ＧＭＡＩＬ。ＣＯＭ')).toMatchObject({
      valid: true, domain: 'gmail.com', domain_tld: 'com', normalized_email: 'jane@gmail.com', free: true, business: false,
    });
    expect(checkEmail('x@ｍａｉｌｉｎａｔｏｒ．ｃｏｍ')).toMatchObject({ valid: true, domain: 'mailinator.com', disposable: true });
  });

  it('checkEmail: a punycode domain and its Unicode spelling get the same verdicts, reported in Unicode', () => {
    for (const typed of ['jane@xn--bcher-kva.example', 'jane@bücher.example', 'JANE@XN--BCHER-KVA.EXAMPLE', 'jane@BÜCHER.example']) {
      expect(checkEmail(typed), typed).toMatchObject({
        valid: true, domain: 'bücher.example', domain_tld: 'example', normalized_email: 'jane@bücher.example',
        free: false, disposable: false, business: true,
      });
    }
  });

  it('checkEmail: the provider lists are read under both spellings of an internationalised domain', () => {
    // mailchecker lists xn--mll-hoa.email (müll.email); disposable wins over the free list's entry.
    for (const typed of ['a@müll.email', 'a@xn--mll-hoa.email']) {
      expect(checkEmail(typed), typed).toMatchObject({ valid: true, domain: 'müll.email', disposable: true, free: false });
    }
  });

  it.each(['jane@xn--zz.com', 'jane@xn--gmail.com', 'jane@0x7f．1', 'jane@\ud800.com'])(
    'checkEmail: %j, a domain IDNA cannot read, is invalid and still reported', (input) => {
      const r = checkEmail(input);
      expect(r).toMatchObject({ success: true, valid: false, normalized_email: null, business: false });
      expect(r.domain).toBe(input.slice(input.indexOf('@') + 1).toLowerCase());
    });

  it.each(['plainaddress', '@acme.io', 'bob@', 'bob@@acme.io', 'bob@acme', 'bob @acme.io', 'bob@acme..io', 'bob@localhost'])(
    'checkEmail: %j is invalid syntax', (input) => {
      const r = checkEmail(input);
      expect(r).toMatchObject({ success: true, valid: false, normalized_email: null, business: false });
    });

  it('checkEmail: invalid input still reports what it can', () => {
    expect(checkEmail('bob@acme')).toMatchObject({ email: 'bob@acme', local_part: 'bob', domain: 'acme', domain_tld: null });
    expect(checkEmail('x y@mailinator.com')).toMatchObject({ valid: false, disposable: true });
  });

  it('checkEmail: an address pasted with its display name ("Jane Doe <jane@example.com>") is invalid and reports no domain, not "example.com>"', () => {
    for (const input of ['Jane Doe <jane@example.com>', '<jane@example.com>', 'jane@example.com>', 'jane@exa mple.com', 'jane@[127.0.0.1]']) {
      expect(checkEmail(input), input).toMatchObject({ valid: false, email: input, domain: null, domain_tld: null, normalized_email: null, free: false, disposable: false, business: false });
    }
    // A domain that is a host name is still reported when the local part is what is wrong.
    expect(checkEmail('jane..doe@example.com')).toMatchObject({ valid: false, domain: 'example.com', domain_tld: 'com' });
  });

  it('checkEmail: an address whose domain ends in a dot ("a@example.com.") is invalid and reports the domain as typed, with the dot', () => {
    expect(checkEmail('a@example.com.')).toMatchObject({ valid: false, email: 'a@example.com.', domain: 'example.com.', domain_tld: 'com', normalized_email: null, business: false });
    expect(checkEmail('a@ｅｘａｍｐｌｅ．ｃｏｍ．')).toMatchObject({ valid: false, domain: 'example.com.', normalized_email: null });
    // The dot hides no list: the domain is still the provider's.
    expect(checkEmail('a@mailinator.com.')).toMatchObject({ valid: false, domain: 'mailinator.com.', disposable: true });
    expect(checkEmail('a@gmail.com.')).toMatchObject({ valid: false, domain: 'gmail.com.', free: true });
  });

  it.each([['empty', ''], ['huge', 'a'.repeat(5000) + '@acme.io'], ['unicode', '💥@💥.💥'], ['nul', 'a\u0000@acme.io'],
    ['non-string', 42 as unknown as string], ['null', null as unknown as string]])(
    'checkEmail: hostile input (%s) never throws and is invalid', (_label, input) => {
      const r = checkEmail(input, 'x'.repeat(100_000));
      expect(r.success).toBe(true);
      expect(r.valid).toBe(false);
    });
});
