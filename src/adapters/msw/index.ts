export { createHandlers, fromFetchRequest, toFetchResponse } from './msw-handlers.js';
export type { HandlersOptions } from './msw-handlers.js';
export { createEmulator } from '../../emulator.js';
export { createManualClock } from '../../core/time/clock.js';
export { createSeededRandom } from '../../core/time/random.js';
export {
  checkIntegration,
  expectCleanIntegration,
  CheckFailedError,
  isCheckFailedError,
} from '../../check/index.js';
export type { CheckOptions, AssertCleanOptions, CheckReport } from '../../check/index.js';
