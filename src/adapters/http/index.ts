export { listen } from './http-server.js';
export type { EmulatorHttpServer, HttpServerOptions } from './http-server.js';
