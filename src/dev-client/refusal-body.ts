/** How much of a refusal is read: its problem, or the start of a page that is not one. */
const REFUSAL_BYTES = 65_536;

/**
 * The start of an error answer's body as text, {@link REFUSAL_BYTES} at most (less when it breaks
 * off): the rest is neither read nor kept, however long it goes on.
 */
export async function readRefusal(answer: Response): Promise<string> {
  const reader = answer.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  while (bytes < REFUSAL_BYTES) {
    const read = await reader.read().catch(() => ({ done: true, value: undefined }) as const);
    if (read.done) return text + decoder.decode();
    text += decoder.decode(read.value.subarray(0, REFUSAL_BYTES - bytes), { stream: true });
    bytes += read.value.byteLength;
  }
  // Not awaited: the rest of the body may never come.
  void reader.cancel().catch(() => undefined);
  return text;
}
