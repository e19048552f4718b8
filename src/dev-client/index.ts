export { createDevClient } from './dev-client.js';
export type { DevClient, DevClientOptions, BucketPage, ClockView } from './dev-client.js';
export type { Health } from './dev-health.js';
export { DevApiError, isDevApiError } from './dev-api-error.js';
export type { DevApiFailure } from './dev-api-error.js';
