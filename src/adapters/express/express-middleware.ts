import { createMiddleware as createMswMiddleware } from '@mswjs/http-middleware';
import type { ErrorRequestHandler, RequestHandler as ExpressHandler } from 'express';
import type { RequestHandler } from 'msw';
import { createProblem } from '../../core/service/problems.js';
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
  const middleware = createMswMiddleware(...handlers);
  return (req, res, next) => {
    // The middleware resolves `req.url` against the server's origin; a path that starts with `//`
    // would be read as a host. No service path starts so: the emulator answers it with its 404.
    if (req.url.startsWith('//')) req.url = req.url.replace(/^\/+/, '/');
    // Its promise is not handled by Express 4: pass failures on instead of leaving the request open.
    Promise.resolve(middleware(req, res, next)).catch(next);
  };
}

/** An Express error handler that answers problem+json instead of Express's HTML page. */
export const problemErrorHandler: ErrorRequestHandler = (error: Error, req, res, next) => {
  if (res.headersSent) return next(error);
  const problem = createProblem(
    'invalid-request',
    `the request could not be read: ${error.message}`,
    { instance: req.path },
  );
  res.status(400).type('application/problem+json').send(JSON.stringify(problem));
};
