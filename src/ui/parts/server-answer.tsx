/** @jsxImportSource preact */
import { problemText, type DevAnswer } from '../dev-api.js';
import { oneLine } from '../format.js';

/** The server's answer to a change, in words: what it did, or its own error message. */
export function ServerAnswer({ answer, done }: { answer: DevAnswer | undefined; done: string }) {
  if (answer === undefined) return null;
  return (
    <p class={answer.ok ? 'answer ok' : 'answer error'} role={answer.ok ? 'status' : 'alert'}>
      {answer.ok
        ? `✓ ${done} (${answer.status})`
        : `✗ The server refused it: ${oneLine(problemText(answer), 600)}`}
    </p>
  );
}
