export { createMiddleware, problemErrorHandler } from './express-middleware.js';
export type { MiddlewareOptions } from './express-middleware.js';
