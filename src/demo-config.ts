import type { ConfigFile } from './core/config/config-schema.js';

/** The demo client's access token. */
export const DEMO_TOKEN = 'uas-demo-token';
/** The demo client's first merchant. */
export const DEMO_MERCHANT = '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';
/** The access token of the second demo client, whose merchant the first may not use. */
export const OTHER_TOKEN = 'uas-other-token';
/** The second demo client's merchant. */
export const OTHER_MERCHANT = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

/**
 * The bundled demo: two clients with their merchants, and three users. `fixtures/uas.config.json`
 * holds the same config as a file (a test keeps the two equal); `uas serve` loads that file.
 */
export const DEMO_CONFIG = {
  clients: [
    {
      id: 'demo',
      name: 'Demo Shop',
      token: DEMO_TOKEN,
      merchants: [DEMO_MERCHANT, '3d5e7a9c-1b2d-4f60-8a1e-5c7b9d0e2f13'],
    },
    {
      id: 'other',
      name: 'Other Shop',
      token: OTHER_TOKEN,
      merchants: [OTHER_MERCHANT],
    },
  ],
  users: [
    { email: 'alice@example.com', phone_number: '+14155550101', token_count: 2 },
    { email: 'bob@example.com', token_count: 0 },
    { email: 'carol@example.com', phone_number: '+447700900123', token_count: 1 },
  ],
  limits: {
    client: { burst: 20, rate: '10/s' },
    caller: { burst: 5, rate: '1/s' },
  },
} satisfies ConfigFile;
