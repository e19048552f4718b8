/**
 * A duration for a person: `0 ms`, `850 ms`, `1.5 s`, `2 min 5 s`, `1 h 2 min`, `3 d 4 h`,
 * `31,710 years`; `—` for what is no duration (negative, not finite).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.floor((ms % 60_000) / 1000)} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  if (days < 365) return `${days} d ${hours % 24} h`;
  const years = Math.floor(days / 365.25);
  return `${years.toLocaleString('en-US')} ${years === 1 ? 'year' : 'years'}`;
}

/**
 * A short duration to the millisecond (`1500 ms`), a long one for a person (`2 min 5 s`); one
 * below zero (a wait shorter than Retry-After, by how much) with its sign (`-31,688 years`).
 */
export function formatDelay(ms: number): string {
  if (Math.abs(ms) < 10_000) return `${Math.round(ms)} ms`;
  return ms < 0 ? `-${formatDuration(-ms)}` : formatDuration(ms);
}
