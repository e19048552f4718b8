/** @jsxImportSource preact */
import { problemText, type DevAnswer } from '../dev-api.js';
import { oneLine } from '../format.js';

/** A number for each answer shown, so that the same words said again are a new message. */
const shown = new WeakMap<object, number>();
let count = 0;

/**
 * The server's answer to a change, in words: what it did, or its own error message. It is said
 * in a live region that is on the page before any answer (a screen reader announces what changes
 * in one it knows, not always one that appears with its words), and each answer is a new message,
 * so that the same words twice ("✓ Added") are announced twice.
 */
export function ServerAnswer({ answer, done }: { answer: DevAnswer | undefined; done: string }) {
  let key = 0;
  if (answer !== undefined) {
    key = shown.get(answer) ?? ++count;
    shown.set(answer, key);
  }
  return (
    <div class="answer-region" aria-live="polite" aria-atomic="true">
      {answer === undefined ? null : (
        <p
          key={key}
          class={answer.ok ? 'answer ok' : 'answer error'}
          role={answer.ok ? 'status' : 'alert'}
        >
          {answer.ok
            ? `✓ ${done} (${answer.status})`
            : `✗ The server refused it: ${oneLine(problemText(answer), 600)}`}
        </p>
      )}
    </div>
  );
}
