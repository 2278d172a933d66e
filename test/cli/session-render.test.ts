import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { renderSession } from '../../src/cli/commands/session/render.js';
import { renderSessions } from '../../src/cli/commands/sessions/render.js';
import { keyValues, styled, table } from '../../src/cli/output.js';
import type { Session } from '../../src/domain/session.js';

const plain = new Chalk({ level: 0 });
const base = {
  session_id: 'ses_1', site_id: 'site_1', site_name: 'Shop', created_at: 't0', updated_at: 't1', risks: [], actions: [],
  custom_events: [], risk_level: 'normal', engagement_level: 'engaged', channel: 'paid', page_views: 2, duration: 30,
  value: null, returned: null, source: null, source_subtype: null, source_id: null, source_medium: null, source_campaign: null,
  source_group: null, source_content: null, source_term: null, source_session_id: null,
} as unknown as Session;

describe('cli: session rendering', () => {
  it('renderSession: shows value, returned, actions and the source_* fields that are set, by their JSON names', () => {
    const text = renderSession({
      ...base, value: 49.5, returned: true, actions: ['block'], source: 'google', source_subtype: 'gclid', source_id: 'abc',
      source_campaign: 'spring', source_group: 'paid_search', source_term: 'shoes', source_session_id: 'ses_0',
    }, plain);
    expect(text).toMatch(/^value: +49\.5$/m);
    expect(text).toMatch(/^returned: +yes/m);
    expect(text).toMatch(/^actions: +block$/m);
    expect(text).toMatch(/^source: +google$/m);
    for (const [k, v] of [['source_subtype', 'gclid'], ['source_id', 'abc'], ['source_campaign', 'spring'], ['source_group', 'paid_search'], ['source_term', 'shoes'], ['source_session_id', 'ses_0']]) {
      expect(text).toMatch(new RegExp(`^${k}: +${v}$`, 'm'));
    }
  });

  it('renderSession: null fields are left out rather than shown as "-"', () => {
    const text = renderSession(base, plain);
    expect(text).not.toMatch(/^(value|returned|source_\w+):/m);
    expect(text).toMatch(/^actions: +-$/m);
  });

  it('renderSession: the visit counts its page views in words that agree (1 page view, 2 page views)', () => {
    expect(renderSession({ ...base, page_views: 1 }, plain)).toMatch(/^visit: +1 page view, 30s/m);
    expect(renderSession(base, plain)).toMatch(/^visit: +2 page views, 30s/m);
  });
});

describe('cli: text from visitors in human output', () => {
  it('renderSession / renderSessions: control characters in a custom event or source are shown escaped, not sent to the terminal', () => {
    const evil = 'x\u001b]0;title\u0007\u001b[2J\nfake: line\r\t\u009b';
    const text = renderSession({ ...base, custom_events: ['conversion', evil], source: evil, referrer: evil }, plain);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text).not.toMatch(/^fake: line/m);
    expect(text).toContain('conversion, x\\u001b]0;title\\u0007\\u001b[2J\\nfake: line\\r\\t\\u009b');
    const list = renderSessions([{ ...base, source: evil, country_code: null, device_type: null } as Session]);
    expect(list.split('\n')).toHaveLength(2);
    expect(list).toContain('x\\u001b]0;title');
  });

  it('table / keyValues: colour a renderer adds is kept', () => {
    const red = new Chalk({ level: 1 }).red('invalid');
    expect(table(['A'], [[styled(red)]])).toContain(red);
    expect(keyValues([['risk', styled(red)]])).toContain(red);
  });
});
