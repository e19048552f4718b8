/** @jsxImportSource preact */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CodeRecord } from '../../core/records/records.js';
import { codeState, replacedCodes } from '../code-state.js';
import { devApi } from '../dev-api.js';
import { live } from '../live.js';
import { withCodesRead } from '../live-state.js';
import { emulatorNow, useClock } from '../parts/use-clock.js';
import { useRefresh } from '../parts/use-refresh.js';

/** The one-time codes issued, per e-mail, newest first, each with a copy button. */
export function InboxPage() {
  const [copied, setCopied] = useState<{ email: string; count: number }>();
  // A verify changes a code (attempts left, verified) without an event of its own: the codes are
  // read again after verifies, at most once a second (every live code is a long answer).
  const tick = useRefresh(1000);
  const read = useRef<string | undefined>(undefined);
  useEffect(() => {
    const { resets, userChanges, verifies } = live.value;
    const seen = `${resets}|${verifies}`;
    if (read.current === seen) return;
    read.current = seen;
    void devApi<{ codes: CodeRecord[] }>('GET', '/codes').then((got) => {
      // A read that a reset or a removed user overtook would bring back the codes they dropped:
      // it is not shown, and the next tick reads again (as does one whose answer was refused).
      if (got.ok && live.value.resets === resets && live.value.userChanges === userChanges)
        live.value = withCodesRead(live.value, got.body.codes);
      else if (read.current === seen) read.current = undefined;
    });
  }, [tick]);
  const codes = live.value.codes;
  // Codes expire on the emulator's clock (a manual one, or --clock-start), not the browser's.
  const clock = useClock();
  const now = clock === undefined ? undefined : emulatorNow(clock);
  if (codes.length === 0) return <p>No code issued yet: a sign-in start issues one.</p>;
  const replaced = replacedCodes(codes);
  return (
    <>
      <p class="dim">The latest code of each e-mail and merchant is the one verify accepts.</p>
      <table data-testid="inbox">
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Code</th>
            <th scope="col">Issued</th>
            <th scope="col">State</th>
            <th scope="col">Attempts left</th>
            <th scope="col">Merchant</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((code) => (
            <tr key={`${code.email}|${code.merchant_id}|${code.issued_at}|${code.code}`}>
              <td>{code.email}</td>
              <td>
                <code data-testid="code">{code.code}</code>{' '}
                <button
                  type="button"
                  aria-label={`Copy the code for ${code.email}`}
                  onClick={() =>
                    void navigator.clipboard?.writeText(code.code).then(
                      () => setCopied({ email: code.email, count: (copied?.count ?? 0) + 1 }),
                      () => setCopied(undefined),
                    )
                  }
                >
                  Copy
                </button>
              </td>
              <td>{code.issued_at}</td>
              <td>{codeState(code, now, replaced.has(code))}</td>
              <td>{code.attempts_left}</td>
              <td class="mono">{code.merchant_id}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* On the page before any copy, each copy a new message: a screen reader announces what
          changes in a live region it knows, and the same words again only as new ones. */}
      <p role="status" data-testid="copied">
        {copied === undefined ? null : (
          <span key={copied.count}>Copied the code for {copied.email}.</span>
        )}
      </p>
    </>
  );
}
