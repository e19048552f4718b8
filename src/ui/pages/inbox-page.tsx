/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { codeState } from '../code-state.js';
import { live } from '../live.js';
import { emulatorNow, useClock } from '../parts/use-clock.js';

/** The one-time codes issued, per e-mail, newest first, each with a copy button. */
export function InboxPage() {
  const [copied, setCopied] = useState<string>();
  const codes = live.value.codes;
  // Codes expire on the emulator's clock (a manual one, or --clock-start), not the browser's.
  const clock = useClock();
  const now = clock === undefined ? undefined : emulatorNow(clock);
  if (codes.length === 0) return <p>No code issued yet: a sign-in start issues one.</p>;
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
            <tr key={`${code.email}|${code.merchant_id}|${code.issued_at}`}>
              <td>{code.email}</td>
              <td>
                <code data-testid="code">{code.code}</code>{' '}
                <button
                  type="button"
                  aria-label={`Copy the code for ${code.email}`}
                  onClick={() =>
                    void navigator.clipboard?.writeText(code.code).then(
                      () => setCopied(code.email),
                      () => setCopied(undefined),
                    )
                  }
                >
                  Copy
                </button>
              </td>
              <td>{code.issued_at}</td>
              <td>{codeState(code, now)}</td>
              <td>{code.attempts_left}</td>
              <td class="mono">{code.merchant_id}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {copied === undefined ? null : <p role="status">Copied the code for {copied}.</p>}
    </>
  );
}
