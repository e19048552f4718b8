import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { resolveConfig } from '../config/config.js';
import { createCoreSharedEmulator } from '../create-core-emulator.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';
import { StoreUnavailableError, type EmulatorStore } from './emulator-store.js';
import { createMemoryStore } from './memory-store.js';

/** A shared store whose buckets answer and whose codes fail (a cluster's other master away). */
function storeFailing(part: 'codes' | 'buckets'): EmulatorStore {
  const memory = createMemoryStore(resolveConfig(DEMO_CONFIG));
  const away = () => Promise.reject(new StoreUnavailableError('the master of the key is away'));
  return {
    ...memory,
    kind: 'shared',
    ledger: part === 'buckets' ? { take: away } : memory.ledger,
    codes: part === 'codes' ? { ...memory.codes, issue: away } : memory.codes,
  };
}

async function startSignIn(store: EmulatorStore) {
  const emulator = createCoreSharedEmulator({
    config: DEMO_CONFIG,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
    random: createSeededRandom(1),
    store,
  });
  const response = await emulator.handle({
    method: 'POST',
    url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'alice@example.com', caller_id: 'c1' }),
  });
  const body = typeof response.body === 'string' ? JSON.parse(response.body) : response.body;
  return { response, detail: (body as { detail: string }).detail };
}

describe('the 503 of a store that fails', () => {
  it('says the bucket took its token when the code failed after it, and nothing changed otherwise', async () => {
    const charged = await startSignIn(storeFailing('codes'));
    expect(charged.response.status).toBe(503);
    expect(charged.detail).toMatch(/the bucket had taken its token, which is not given back/);
    const untouched = await startSignIn(storeFailing('buckets'));
    expect(untouched.response.status).toBe(503);
    expect(untouched.detail).toMatch(/; nothing was changed$/);
  });
});
