import { CliError, EXIT } from '../io.js';

/** A failure to listen on `host`:`port`, in the words of `uas serve` (other errors as they are). */
export function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new CliError(
        `port ${port} is already in use on ${host}; choose another with --port`,
        EXIT.failure,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new CliError(`cannot listen on ${host}: no such local address`, EXIT.usage);
    case 'EACCES':
      return new CliError(
        `no permission to listen on port ${port}; choose a port above 1023`,
        EXIT.failure,
      );
    default:
      return error;
  }
}
