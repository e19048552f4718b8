/**
 * Polls until `check` holds, every 20 ms, for at most `timeoutMs`: for what travels between
 * processes (pub/sub, a worker starting), never for a bucket's refill.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether `check` holds within `timeoutMs`, polled every 20 ms: {@link eventually} as an answer. */
export async function holdsWithin(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  return eventually(check, timeoutMs).then(
    () => true,
    () => false,
  );
}
