/**
 * The test tiers, as vitest projects (vitest.config.ts): `unit` runs in the test process alone,
 * `integration` starts servers, `uas` processes and redis-server, `e2e` packs and installs the
 * package, drives a browser or a terminal (tmux), or installs from a clone. docs/development.md
 * describes them; test/tiers.test.ts proves every test file is in exactly one.
 */
export type Tier = { name: 'unit' | 'integration' | 'e2e'; include: string[]; exclude: string[] };

/** Tests under test/ that start nothing: no socket, no process. */
const PURE_UNDER_TEST = [
  'test/check/recipes/clean-integration.test.ts',
  'test/check/recorded-resends.test.ts',
  'test/check/rule-docs.test.ts',
  'test/docs/doc-markers.test.ts',
  'test/recipes/vitest-msw/sign-in.test.ts',
  'test/tiers.test.ts',
];

/** Tests beside the code that listen on a real socket. */
const SOCKETS_UNDER_SRC = [
  'src/adapters/express/express-middleware.test.ts',
  'src/http/exchange-http.test.ts',
  'src/transport/delay-answer.test.ts',
];

/**
 * Tests that pack or install the package, drive a browser or a terminal, or run every shell
 * example of the docs (the slowest of the rest, measured: minutes, each example a server).
 */
const END_TO_END = [
  'test/browser/**/*.test.ts',
  'test/docs/doc-install.test.ts',
  'test/docs/doc-shell.test.ts',
  'test/docs/doc-terminal.test.ts',
  'test/package/**/*.test.ts',
  'test/tui/top-screen.test.ts',
  'test/tui/top-smoke.test.ts',
];

export const TIERS: Tier[] = [
  {
    name: 'unit',
    include: ['src/**/*.test.{ts,tsx}', ...PURE_UNDER_TEST],
    exclude: SOCKETS_UNDER_SRC,
  },
  {
    name: 'integration',
    include: ['test/**/*.test.{ts,tsx}', ...SOCKETS_UNDER_SRC],
    exclude: [...PURE_UNDER_TEST, ...END_TO_END],
  },
  { name: 'e2e', include: END_TO_END, exclude: [] },
];
