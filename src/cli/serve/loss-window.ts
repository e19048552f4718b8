import { formatLossMarker } from '../../check/recording-loss.js';

/** Records lost and not yet marked in the file: how many, when (first and last), and why. */
export interface LossWindow {
  lost: number;
  from: number;
  to: number;
  reasons: Set<string>;
}

/** `window` (or a new one) with `count` records more, lost between `from` and `to` for `reason`. */
export function addLoss(
  window: LossWindow | undefined,
  count: number,
  from: number,
  to: number,
  reason: string,
): LossWindow {
  const next = window ?? { lost: 0, from, to, reasons: new Set<string>() };
  next.lost += count;
  next.from = Math.min(next.from, from);
  next.to = Math.max(next.to, to);
  next.reasons.add(reason);
  return next;
}

/** Both windows as one (`newer` may be undefined). */
export function mergeLosses(older: LossWindow, newer: LossWindow | undefined): LossWindow {
  if (newer === undefined) return older;
  const merged = addLoss(older, newer.lost, newer.from, newer.to, [...newer.reasons][0] ?? '');
  for (const reason of newer.reasons) merged.reasons.add(reason);
  return merged;
}

/** The loss line of a window, newline included. */
export function lossLine(window: LossWindow): string {
  return formatLossMarker({
    lost: window.lost,
    from: new Date(window.from).toISOString(),
    to: new Date(window.to).toISOString(),
    reason: [...window.reasons].join(', '),
  });
}
