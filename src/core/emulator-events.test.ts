import { describe, expect, it } from 'vitest';
import { createEmulatorEvents } from './emulator-events.js';
import type { StoreChannel } from './store/emulator-store.js';

describe('createEmulatorEvents', () => {
  it('is active while any hub has a listener, and here only for its own listeners', () => {
    const { local, deferring, readers, announcer } = createEmulatorEvents(undefined);
    const states = () => [announcer.all.active, announcer.here.active];
    expect(states()).toEqual([false, false]);
    const listener = () => {};
    const offLocal = local.subscribe(listener);
    const again = local.subscribe(listener); // the same listener: still one
    expect(states()).toEqual([true, true]);
    const offDeferring = deferring.subscribe(() => {});
    offLocal();
    again(); // a second call changes nothing more
    expect(states()).toEqual([true, true]);
    offDeferring();
    expect(states()).toEqual([false, false]);
    const offReader = readers.subscribe(() => {});
    expect(states()).toEqual([true, false]);
    offReader();
    offReader();
    expect(states()).toEqual([false, false]);
  });

  it('is active for the instances sharing its store while one of them has a reader', () => {
    const channel = { watched: false, watching: (active: boolean) => void active };
    const { readers, announcer } = createEmulatorEvents(channel as unknown as StoreChannel);
    expect(announcer.all.active).toBe(false);
    channel.watched = true; // another instance's reader
    expect(announcer.all.active).toBe(true);
    expect(announcer.here.active).toBe(false);
    channel.watched = false;
    const told: boolean[] = [];
    channel.watching = (active) => void told.push(active);
    const off = readers.subscribe(() => {});
    expect(announcer.all.active).toBe(true);
    off();
    expect(told).toEqual([true, false]);
    expect(announcer.all.active).toBe(false);
  });
});
