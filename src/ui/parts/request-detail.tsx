/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import type { RequestRecord } from '../../core/records/records.js';
import { answerText, callerIdPlace, formatClock, oneLine, retryAfterText } from '../format.js';
import { curlCommand, replayRequest } from '../replay-request.js';
import { href } from '../route.js';

const CLIENT_TOKEN_KEY = 'uas.clientToken';

/** One request: what was sent, where its caller_id was, its bucket, and what it got. */
export function RequestDetail({ record }: { record: RequestRecord }) {
  const rows: Array<[string, string, string?]> = [
    ['Time', `${new Date(record.at).toISOString().slice(0, 10)} ${formatClock(record.at)} UTC`],
    ['Request', `${record.method} ${record.path}`],
    ['Client', record.client_id ?? 'none (unauthenticated)'],
    ['Fields', oneLine(record.fields ?? {})],
    ['caller_id', record.caller_id ?? record.caller_id_misplaced[0]?.value ?? 'none', 'caller-id'],
    ['caller_id found', callerIdPlace(record), 'caller-id-place'],
    ['Bucket', record.bucket ?? 'none', 'bucket'],
    ['Tokens left after', record.remaining === undefined ? '—' : String(record.remaining)],
    ['Answer', answerText(record), 'answer'],
    ['Retry-After', retryAfterText(record), 'retry-after'],
    ['User-Agent', record.user_agent ?? '—'],
    ['Idempotency-Key', record.idempotency_key ?? '—'],
    ['Retry-Attempt', record.retry_attempt ?? '—'],
  ];
  return (
    <div data-testid="request-detail">
      <h2>Request #{record.id}</h2>
      <dl class="facts">
        {rows.map(([name, value, id]) => [
          <dt key={`${name}-t`}>{name}</dt>,
          <dd key={`${name}-d`} data-testid={id}>
            {oneLine(value, 600)}
          </dd>,
        ])}
      </dl>
      {record.bucket === undefined ? null : (
        <p>
          <a href={href('buckets', { search: record.bucket, open: record.bucket })}>
            See bucket {oneLine(record.bucket)}
          </a>
        </p>
      )}
      <Resend record={record} />
    </div>
  );
}

/** "Copy as curl" and "Replay": the same request again, its answer shown here. */
function Resend({ record }: { record: RequestRecord }) {
  const [token, setToken] = useState(() => sessionStorage.getItem(CLIENT_TOKEN_KEY) ?? '');
  const [result, setResult] = useState<string>();
  const curl = curlCommand(record, location.origin);
  const replay = async () => {
    sessionStorage.setItem(CLIENT_TOKEN_KEY, token);
    const request = replayRequest(record, token);
    try {
      // On this origin, whatever the path: a recorded `//host/…` or `/\host/…` is not another host.
      const response = await fetch(`${location.origin}${request.url}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        credentials: 'omit',
      });
      setResult(
        `Replayed: ${response.status} ${response.statusText} ${oneLine(await response.text(), 400)} (it is the newest request in the list)`,
      );
    } catch (error) {
      setResult(`Replay failed: ${(error as Error).message}`);
    }
  };
  return (
    <div class="panel">
      <label for="curl">As curl (the client token as $UAS_TOKEN)</label>
      <textarea id="curl" readOnly rows={3} value={curl} />
      <button
        type="button"
        onClick={() =>
          void navigator.clipboard?.writeText(curl).then(
            () => setResult('Copied the curl command.'),
            () => setResult('Copy refused by the browser: select the text above.'),
          )
        }
      >
        Copy as curl
      </button>
      <label for="client-token">Client token for replay</label>
      <input
        id="client-token"
        type="password"
        autocomplete="off"
        value={token}
        onInput={(event) => setToken(event.currentTarget.value)}
      />
      <button type="button" onClick={() => void replay()} disabled={token === ''}>
        Replay
      </button>
      {record.operation === 'verify' ? (
        <p class="dim">Records never hold the one-time code: a replayed verify has none.</p>
      ) : null}
      {/* On the page before any result: a screen reader announces what changes in a live region
          it knows, not always one that appears with its words. */}
      <p role="status" data-testid="replay-result">
        {result}
      </p>
    </div>
  );
}
