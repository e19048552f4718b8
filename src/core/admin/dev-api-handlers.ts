import type { DevHandlers } from './dev-api-handler.js';
import { bucketHandlers } from './handlers/bucket-handlers.js';
import { clockHandlers } from './handlers/clock-handlers.js';
import { codeHandlers } from './handlers/code-handlers.js';
import { configHandlers } from './handlers/config-handlers.js';
import { faultHandlers } from './handlers/fault-handlers.js';
import { requestHandlers } from './handlers/request-handlers.js';
import { serverHandlers } from './handlers/server-handlers.js';
import { userHandlers } from './handlers/user-handlers.js';

/** The handler of every route of the dev API's table, by resource: a route without one does not compile. */
export const DEV_API_HANDLERS: DevHandlers = {
  ...serverHandlers,
  ...bucketHandlers,
  ...codeHandlers,
  ...requestHandlers,
  ...faultHandlers,
  ...clockHandlers,
  ...userHandlers,
  ...configHandlers,
};
