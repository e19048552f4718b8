export { createHttpServer, listen, wrapServer, closeGracefully } from './http-server.js';
export type { HttpServerOptions, EmulatorHttpServer } from './http-server.js';
