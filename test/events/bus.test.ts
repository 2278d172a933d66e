import { describe, expect, it } from 'vitest';
import { createEventBus, type EmulatorEvent } from '../../src/events/bus.js';

const event = (type: EmulatorEvent['type']): EmulatorEvent => ({ type, data: {} }) as EmulatorEvent;

describe('event bus', () => {
  it('wants: nobody listening wants nothing; an unfiltered listener wants every type', () => {
    const bus = createEventBus();
    expect(bus.wants('session.updated')).toBe(false);
    const off = bus.subscribe(() => {});
    expect(bus.wants('session.updated')).toBe(true);
    expect(bus.wants('request.logged')).toBe(true);
    off();
    expect(bus.wants('session.updated')).toBe(false);
  });

  it('wants: a listener that reads only some types wants only those, and still gets what is published', () => {
    const bus = createEventBus();
    const seen: string[] = [];
    const off = bus.subscribe((e) => seen.push(e.type), (type) => type === 'request.logged');
    expect(bus.wants('request.logged')).toBe(true);
    expect(bus.wants('check.created')).toBe(false);
    bus.publish(event('request.logged'));
    expect(seen).toEqual(['request.logged']);
    off();
    expect(bus.wants('request.logged')).toBe(false);
  });

  it('subscribe: one function subscribed twice gets each event twice, and each unsubscribe removes one', () => {
    const bus = createEventBus();
    let n = 0;
    const listener = () => void n++;
    const off1 = bus.subscribe(listener);
    bus.subscribe(listener);
    bus.publish(event('site.created'));
    expect(n).toBe(2);
    off1();
    bus.publish(event('site.created'));
    expect(n).toBe(3);
  });
});
