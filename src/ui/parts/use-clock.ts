import { useEffect, useState } from 'preact/hooks';
import { devApi } from '../dev-api.js';
import { useRefresh } from './use-refresh.js';

/** The emulator's clock as `GET /__uas/clock` gave it, and when this page read it (`read_at`). */
export interface EmulatorClock {
  mode: string;
  now: string;
  now_ms: number;
  read_at: number;
}

/** How often a manual clock is read again without traffic: a script or another tab may move it. */
const MANUAL_CLOCK_EVERY_MS = 2_000;

/**
 * The emulator's clock, read again as traffic comes and, when it is manual (it moves only when
 * told, with or without traffic), every {@link MANUAL_CLOCK_EVERY_MS} too.
 */
export function useClock(): EmulatorClock | undefined {
  const [clock, setClock] = useState<EmulatorClock>();
  const [reads, setReads] = useState(0);
  const tick = useRefresh(1000);
  useEffect(() => {
    void devApi<Omit<EmulatorClock, 'read_at'>>('GET', '/clock').then((answer) => {
      if (answer.ok) setClock({ ...answer.body, read_at: Date.now() });
    });
  }, [tick, reads]);
  useEffect(() => {
    if (clock?.mode !== 'manual') return;
    const timer = setTimeout(() => setReads((count) => count + 1), MANUAL_CLOCK_EVERY_MS);
    return () => clearTimeout(timer);
  }, [clock]);
  return clock;
}

/**
 * The emulator's time now, in ms: a manual clock's as read (it moves only when told), a system
 * clock's as read plus the time since (the server's clock, not the browser's).
 */
export function emulatorNow(clock: EmulatorClock): number {
  return clock.mode === 'manual' ? clock.now_ms : clock.now_ms + (Date.now() - clock.read_at);
}
