/** @jsxImportSource preact */
import { useEffect, useRef, useState } from 'preact/hooks';
import { adminToken, devApi, needsToken, setAdminToken } from '../dev-api.js';
import { startLive } from '../live.js';

/** How often the prompt asks whether the server still wants a token. */
const PROBE_EVERY_MS = 3_000;

/**
 * Asks for the admin token once; it is kept in this tab's sessionStorage only. The focus is never
 * lost with the prompt: a token given moves it to the page (which stays when the prompt goes), and
 * a prompt that comes back because the token was refused takes it in its field.
 */
export function TokenPrompt() {
  const [token, setToken] = useState('');
  const [empty, setEmpty] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (adminToken.value !== undefined) field.current?.focus();
  }, []);
  // The server may be started again without --admin-token: the prompt looks every few seconds,
  // and goes once the dev API answers without asking for a token.
  useEffect(() => {
    const timer = setInterval(() => {
      void devApi('GET', '/config').then((answer) => {
        if (!answer.ok) return;
        needsToken.value = false;
        startLive();
      });
    }, PROBE_EVERY_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <form
      class="panel"
      onSubmit={(event) => {
        event.preventDefault();
        setEmpty(token.trim() === '');
        if (token.trim() === '') return;
        document.getElementById('main')?.focus();
        setAdminToken(token.trim());
        startLive();
      }}
    >
      <p>
        This server was started with --admin-token: enter it to use the dashboard. It is kept in
        this tab only.
      </p>
      {adminToken.value === undefined ? null : (
        <p role="alert" data-testid="token-refused">
          The server refused the token given: enter it again.
        </p>
      )}
      {/* Said in a live region that is on the page before it is needed. */}
      <p role="status" data-testid="token-empty">
        {empty ? 'Type the admin token first: the field is empty.' : ''}
      </p>
      <label for="admin-token">Admin token</label>
      <input
        id="admin-token"
        ref={field}
        type="password"
        autocomplete="off"
        value={token}
        onInput={(event) => setToken(event.currentTarget.value)}
      />
      <button type="submit">Use token</button>
    </form>
  );
}
