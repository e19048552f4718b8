/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { adminToken, setAdminToken } from '../dev-api.js';
import { startLive } from '../live.js';

/** Asks for the admin token once; it is kept in this tab's sessionStorage only. */
export function TokenPrompt() {
  const [token, setToken] = useState('');
  return (
    <form
      class="panel"
      onSubmit={(event) => {
        event.preventDefault();
        if (token.trim() === '') return;
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
      <label for="admin-token">Admin token</label>
      <input
        id="admin-token"
        type="password"
        autocomplete="off"
        value={token}
        onInput={(event) => setToken(event.currentTarget.value)}
      />
      <button type="submit">Use token</button>
    </form>
  );
}
