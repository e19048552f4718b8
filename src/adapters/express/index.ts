export { createMiddleware } from './express-middleware.js';
export type { MiddlewareOptions, MiddlewareRequest } from './express-middleware.js';
