import type { setupServer } from 'msw/node';

/**
 * Fail on a request no handler answers, with msw 2 (`onUnhandledRequest`) and msw 3
 * (`onUnhandledFrame`) alike: the suite runs on both majors.
 */
export const STRICT = {
  onUnhandledRequest: 'error',
  onUnhandledFrame: 'error',
} as unknown as Parameters<ReturnType<typeof setupServer>['listen']>[0];
