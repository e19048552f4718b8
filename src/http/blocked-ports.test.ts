import { describe, expect, it } from 'vitest';
import { blockedPortWarning, isFetchBlockedPort } from './blocked-ports.js';

/** What this Node's fetch says of `port`: 'bad port' for one it refuses before connecting. */
async function fetchSays(port: number): Promise<string> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
    return 'answered';
  } catch (error) {
    return String((error as { cause?: { message?: string } }).cause?.message);
  }
}

describe('isFetchBlockedPort', () => {
  it("agrees with this Node's fetch on every port up to 1100 and around the others", async () => {
    const ports = new Set<number>();
    for (let port = 1; port <= 1_100; port++) ports.add(port);
    for (const [from, to] of [
      [1_715, 1_725],
      [2_045, 2_050],
      [3_655, 3_660],
      [4_040, 4_195],
      [5_055, 5_065],
      [5_995, 6_005],
      [6_560, 6_700],
      [10_075, 10_085],
    ] as const)
      for (let port = from; port <= to; port++) ports.add(port);
    const disagree: number[] = [];
    for (const port of ports)
      if (((await fetchSays(port)) === 'bad port') !== isFetchBlockedPort(port))
        disagree.push(port);
    expect(disagree).toEqual([]);
  }, 60_000);

  it('warns of a URL on such a port only', () => {
    expect(blockedPortWarning('http://127.0.0.1:6000')).toMatch(
      /^port 6000 is one the Fetch standard blocks: browsers \(the dashboard\) .* serve on another port for those$/,
    );
    for (const url of ['http://127.0.0.1:4010', 'http://localhost:8080', 'http://[::1]:6001'])
      expect(blockedPortWarning(url)).toBeUndefined();
  });
});
