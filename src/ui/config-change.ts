/** Field values by JSON pointer (`/limits/caller/burst`). */
export type Values = Record<string, string>;

/** The change that sets the fields that differ from the running config. */
export function configChange(
  values: Values,
  running: Values,
  numeric: ReadonlySet<string>,
): Record<string, unknown> {
  const change: Record<string, Record<string, Record<string, unknown> | unknown>> = {};
  for (const [pointer, value] of Object.entries(values)) {
    if (value === running[pointer]) continue;
    const parts = pointer.slice(1).split('/');
    let node: Record<string, unknown> = change;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    const number = Number(value);
    node[parts.at(-1) as string] =
      numeric.has(pointer) && value.trim() !== '' && Number.isFinite(number) ? number : value;
  }
  return change;
}
