import { createMiddleware as createMswMiddleware } from '@mswjs/http-middleware';
import type { RequestHandler as ExpressHandler } from 'express';
import type { RequestHandler } from 'msw';
import { createHandlers, type HandlersOptions } from '../msw/msw-handlers.js';

/** Options of {@link createMiddleware}: those of `createHandlers`, plus handlers of your own. */
export interface MiddlewareOptions extends HandlersOptions {
  /** msw handlers tried before the emulator's, to add or override endpoints. */
  handlers?: RequestHandler[];
}

/**
 * Express middleware that answers like `uas serve`, to mount in an existing app:
 * `app.use('/uas', createMiddleware())`. Requests the handlers do not match go to `next()`.
 */
export function createMiddleware(options: MiddlewareOptions = {}): ExpressHandler {
  // @mswjs/http-middleware is CommonJS and types its handlers with msw's CommonJS build; the ESM
  // handlers made here behave the same at run time (the conformance suite serves through it).
  const handlers = [
    ...(options.handlers ?? []),
    ...createHandlers(options),
  ] as unknown as Parameters<typeof createMswMiddleware>;
  return createMswMiddleware(...handlers);
}
