/** @jsxImportSource preact */
import { useEffect, useRef, useState } from 'preact/hooks';
import { devApi, type DevAnswer } from '../dev-api.js';
import { configChange } from '../config-change.js';
import { live } from '../live.js';
import { ServerAnswer } from './server-answer.js';

/** The settings the form edits, by their JSON pointer in a config change. */
const FIELDS = [
  ['/limits/client/burst', 'Client bucket burst', 'number'],
  ['/limits/client/rate', 'Client bucket rate (e.g. 10/s)', 'text'],
  ['/limits/caller/burst', 'Caller bucket burst', 'number'],
  ['/limits/caller/rate', 'Caller bucket rate (e.g. 1/s)', 'text'],
  ['/behavior/chaos', 'Chaos: probability of an injected 429 (0 to 1)', 'number'],
  ['/behavior/latency', 'Added latency (e.g. 0ms, 50ms-200ms)', 'text'],
  ['/behavior/retryAfter', 'Retry-After (exact, absent, fixed:<seconds>)', 'text'],
  [
    '/behavior/headers',
    'Rate-limit headers (draft-10, draft-7, draft-6, x-ratelimit, none)',
    'text',
  ],
  ['/otp/ttl', 'Code lifetime (e.g. 10m)', 'text'],
  ['/otp/maxAttempts', 'Wrong codes allowed', 'number'],
] as const;

import type { Values } from '../config-change.js';

function read(config: unknown, pointer: string): string {
  let value: unknown = config;
  for (const part of pointer.slice(1).split('/'))
    value = (value as Record<string, unknown> | undefined)?.[part];
  return value === undefined ? '' : String(value);
}

const NUMERIC = new Set<string>(
  FIELDS.filter((field) => field[2] === 'number').map((field) => field[0]),
);

/**
 * Limits, behaviour and OTP settings, changed live; the server's own errors beside each field.
 * Read again after a change made here, and after a reset or a change of config made here or
 * elsewhere (a script, another tab): a field being edited keeps what was typed in it.
 */
export function ConfigForm() {
  const [running, setRunning] = useState<Values>({});
  const [values, setValues] = useState<Values>({});
  const [answer, setAnswer] = useState<DevAnswer>();
  // The config as last read, for a read that comes while a field is being edited.
  const shown = useRef<Values>({});
  const load = async (keepEdits: boolean) => {
    const got = await devApi('GET', '/config');
    if (!got.ok) return;
    const next = Object.fromEntries(FIELDS.map(([pointer]) => [pointer, read(got.body, pointer)]));
    const before = shown.current;
    shown.current = next;
    setRunning(next);
    setValues((typed) =>
      keepEdits
        ? Object.fromEntries(
            FIELDS.map(([pointer]) => {
              const value = typed[pointer];
              const edited = value !== undefined && value !== before[pointer];
              return [pointer, edited ? value : (next[pointer] ?? '')];
            }),
          )
        : next,
    );
  };
  const { resets, config } = live.value;
  useEffect(() => void load(true), [resets, config]);
  const errors = new Map<string, string>();
  for (const error of (
    answer?.body as { errors?: Array<{ pointer?: string; detail?: string }> } | undefined
  )?.errors ?? [])
    if (!answer?.ok && error.pointer !== undefined)
      errors.set(error.pointer.replace(/^#/, ''), error.detail ?? '');
  return (
    <form
      class="panel"
      aria-labelledby="config-title"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const got = await devApi('PATCH', '/config', configChange(values, running, NUMERIC));
        setAnswer(got);
        if (got.ok) await load(false);
      }}
    >
      <h2 id="config-title">Config</h2>
      <div class="grid">
        {FIELDS.map(([pointer, label]) => {
          const id = `config${pointer.replace(/\//g, '-')}`;
          const error = errors.get(pointer);
          return (
            <div key={pointer} class="field">
              <label for={id}>{label}</label>
              <input
                id={id}
                value={values[pointer] ?? ''}
                aria-invalid={error === undefined ? undefined : 'true'}
                aria-describedby={error === undefined ? undefined : `${id}-error`}
                onInput={(event) => setValues({ ...values, [pointer]: event.currentTarget.value })}
              />
              {error === undefined ? null : (
                <p id={`${id}-error`} class="field-error" data-testid="field-error">
                  ✗ {error}
                </p>
              )}
            </div>
          );
        })}
      </div>
      <button type="submit">Apply changes</button>
      <ServerAnswer answer={answer} done="Applied" />
    </form>
  );
}
