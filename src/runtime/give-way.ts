/**
 * Resolves on a later turn of the event loop, after the I/O waiting meanwhile: `setImmediate` in
 * Node, a zero timeout elsewhere (a browser, a worker). What a transport hands the core so that
 * long dev-API work lets other requests through.
 */
export function giveWay(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
