import type { MaybePromise } from '../../async/maybe-promise.js';
import type { EmulatorResponse } from '../../service/exchange.js';
import {
  CLOCK_RANGE,
  isClockTime,
  isKeptClock,
  isManualClock,
  type Clock,
  type ManualClock,
} from '../../time/clock.js';
import { parseIsoTime } from '../../time/iso-time.js';
import { CLOCK_TEXT_MAX_LENGTH } from '../dev-api-bounds.js';
import { invalid, json, refuse } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';

/** The routes of the clock: read it, and move a manual one. */
export const clockHandlers = {
  getClock: ({ target }) => json(200, clockView(target.clock)),
  moveClock: ({ target, body, path }) => {
    const clock = target.clock;
    if (!isManualClock(clock))
      return refuse(
        'clock-not-manual',
        'the emulator runs on the system clock; start it with uas serve --clock manual (or pass createManualClock()) to move it',
        path,
      );
    const move = readMove(body, clock.now());
    return 'fault' in move
      ? invalid(path, [{ detail: move.fault, pointer: move.pointer }])
      : moveTo(clock, move);
  },
} satisfies Pick<DevHandlers, 'getClock' | 'moveClock'>;

function clockView(clock: Clock): { mode: 'manual' | 'system'; now: string; now_ms: number } {
  const now = clock.now();
  return {
    mode: isManualClock(clock) ? 'manual' : 'system',
    now: new Date(now).toISOString(),
    now_ms: now,
  };
}

type Move = { advanceMs: number } | { setMs: number } | { fault: string; pointer: string };

/** `{"advance_ms": N}` or `{"set": ISO time or ms}` read as a move of a clock at `now`. */
function readMove(body: unknown, now: number): Move {
  const fields =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const { advance_ms: advance, set } = fields;
  const bad = (fault: string, pointer: string): Move => ({ fault, pointer });
  if (Object.keys(fields).length !== 1 || (advance === undefined && set === undefined))
    return bad('send {"advance_ms": <ms>} or {"set": "<ISO time>" | <ms since the epoch>}', '#');
  const latest = new Date(CLOCK_RANGE.max).toISOString();
  if (advance !== undefined) {
    if (typeof advance !== 'number' || !Number.isFinite(advance) || advance < 0)
      return bad('advance_ms must be a number of ms, 0 or more', '#/advance_ms');
    if (!isClockTime(now + advance))
      return bad(`advance_ms would move the clock past ${latest}`, '#/advance_ms');
    return { advanceMs: advance };
  }
  const target =
    typeof set === 'string' && set.length <= CLOCK_TEXT_MAX_LENGTH ? parseIsoTime(set) : set;
  if (typeof target !== 'number' || !isClockTime(target))
    return bad(
      `set must be an ISO 8601 time or ms since the epoch, from ${new Date(CLOCK_RANGE.min).toISOString()} to ${latest}`,
      '#/set',
    );
  return { setMs: target };
}

/** Moves the clock. Kept in the shared store first: a move Redis cannot keep is a 503, made nowhere. */
function moveTo(
  clock: ManualClock,
  move: { advanceMs: number } | { setMs: number },
): MaybePromise<EmulatorResponse> {
  if (isKeptClock(clock)) return clock.move(move).then(() => json(200, clockView(clock)));
  if ('advanceMs' in move) clock.advance(move.advanceMs);
  else clock.set(move.setMs);
  return json(200, clockView(clock));
}
