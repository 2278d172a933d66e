// Email check: syntax (validator), normalised form, free provider (email-providers),
// disposable domain (mailchecker), role account, and whether it matches the customer's name.
// No DNS/MX lookups: the emulator is offline and deterministic.
import { createRequire } from 'node:module';
import { lazy } from '../domain/lazy.js';
import { readEmailDomain } from './email-domain.js';
import { visibleText } from './visible-text.js';

const validator = lazy<typeof import('validator')>('validator');
const mailChecker = lazy<typeof import('mailchecker')>('mailchecker');

export interface EmailCheck {
  success: boolean;
  valid: boolean;
  email: string | null;
  local_part: string | null;
  normalized_email: string | null;
  domain: string | null;
  domain_tld: string | null;
  free: boolean;
  disposable: boolean;
  business: boolean;
  role: boolean;
  name_match: boolean | null;
  digits_count: number;
}

const MAX_INPUT = 1000;

const require = createRequire(import.meta.url);
// Reserved names (RFC 2606/6761) are in the providers list but are nobody's free mailbox.
const RESERVED = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/;
let freeDomains: Set<string> | undefined;
function isFreeDomain(domain: string): boolean {
  freeDomains ??= new Set((require('email-providers/all.json') as string[]).map((d) => d.toLowerCase()));
  return freeDomains.has(domain) && !RESERVED.test(domain);
}

// Disposable when the domain or any parent domain is listed (as mailchecker itself does).
function isDisposableDomain(domain: string): boolean {
  const list = mailChecker().blacklist();
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) if (list.has(labels.slice(i).join('.'))) return true;
  return false;
}

const ROLES = new Set(['abuse', 'accounting', 'accounts', 'admin', 'administrator', 'billing', 'booking',
  'careers', 'contact', 'customerservice', 'donotreply', 'enquiries', 'feedback', 'finance', 'hello',
  'help', 'helpdesk', 'hostmaster', 'hr', 'info', 'inquiries', 'jobs', 'legal', 'mail', 'marketing',
  'media', 'newsletter', 'noreply', 'office', 'orders', 'postmaster', 'press', 'privacy', 'reception',
  'root', 'sales', 'security', 'service', 'staff', 'support', 'team', 'webmaster']);

// Lower case without accents, so "Zoë" matches "zoe".
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

function nameMatch(local: string, name: string | null | undefined): boolean | null {
  if (typeof name !== 'string') return null;
  const tokens = fold(name.slice(0, MAX_INPUT)).split(/[^\p{L}]+/u).filter((t) => t.length >= 2);
  if (tokens.length === 0) return null; // nothing usable to compare
  const haystack = fold(local);
  return tokens.some((t) => haystack.includes(t));
}

// The contract's normal form: lower case, "+tag" sub-addressing removed. No provider-specific rules
// (Gmail ignoring dots, googlemail.com): the address stays the one the visitor would recognise.
// A quoted local part ("john+news") keeps its quotes around what is left, unless the cut would
// leave its closing quote escaped.
function normalize(local: string, domain: string): string {
  const quoted = local.length > 2 && local.startsWith('"') && local.endsWith('"');
  let l = (quoted ? local.slice(1, -1) : local).toLowerCase();
  const plus = l.indexOf('+');
  if (plus > 0 && !(quoted && /(^|[^\\])(\\\\)*\\$/.test(l.slice(0, plus)))) l = l.slice(0, plus);
  return `${quoted ? `"${l}"` : l}@${domain}`;
}

// Characters no domain name holds, however it is spelled (a domain IDNA cannot read is still shown).
const NOT_IN_A_DOMAIN = /[\s<>()[\]{},;:"\\@]/;

export function checkEmail(input: string, name?: string | null): EmailCheck {
  const raw = typeof input === 'string' ? visibleText(input) : '';
  const result: EmailCheck = { success: true, valid: false, email: null, local_part: null,
    normalized_email: null, domain: null, domain_tld: null, free: false, disposable: false,
    business: false, role: false, name_match: null, digits_count: 0 };
  if (raw.length === 0 || raw.length > MAX_INPUT) return result;

  result.email = raw;
  const at = raw.lastIndexOf('@');
  if (at < 0) return result;
  const local = raw.slice(0, at);
  // The domain in one spelling however it was typed (full-width, punycode or Unicode labels);
  // the lists are looked up under both spellings, as they hold some domains in each.
  const read = readEmailDomain(raw.slice(at + 1));
  const domain = read.name.replace(/\.$/, '');
  const ascii = read.ascii?.replace(/\.$/, '') ?? null;
  const spellings = ascii && ascii !== domain ? [domain, ascii] : [domain];
  result.local_part = local;
  // What follows the @ of "Jane <jane@example.com>" ("example.com>") or of a typo with a space is
  // no domain: not reported, and looked up in none of the lists.
  const named = domain !== '' && !NOT_IN_A_DOMAIN.test(domain);
  // Reported as typed: "example.com." (a trailing dot makes the address invalid) is not shown as
  // the "example.com" that would be valid; its lists and TLD are still the domain's.
  result.domain = named ? read.name : null;
  result.domain_tld = named && domain.includes('.') ? domain.slice(domain.lastIndexOf('.') + 1) : null;

  let valid = false;
  try {
    valid = local.length > 0 && domain.length > 0 && ascii !== null && validator().isEmail(`${local}@${read.name}`);
  } catch {
    valid = false;
  }
  const base = local.toLowerCase().split('+')[0].replace(/[._-]/g, '');
  result.valid = valid;
  result.disposable = named ? spellings.some(isDisposableDomain) : false;
  // A domain is exactly one of free / disposable / business.
  result.free = named ? !result.disposable && spellings.some(isFreeDomain) : false;
  result.business = valid && !result.free && !result.disposable;
  result.role = ROLES.has(base);
  result.name_match = nameMatch(local, name);
  result.digits_count = (local.match(/\d/g) ?? []).length;
  result.normalized_email = valid ? normalize(local, domain) : null;
  return result;
}
