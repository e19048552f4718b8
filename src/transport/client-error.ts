import { createProblem, type Problem } from '../core/service/problems.js';

const TIMEOUT_CODES = new Set(['ERR_HTTP_REQUEST_TIMEOUT', 'ERR_HTTP_HEADERS_TIMEOUT']);

/**
 * The problem a client gets for a request Node's parser could not take: a header block over
 * `maxHeaderBytes` (the request line, its URL, counts with them), a request not sent in time, anything else malformed.
 */
export function clientErrorProblem(error: NodeJS.ErrnoException, maxHeaderBytes: number): Problem {
  const code = error.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW')
    return createProblem(
      'header-fields-too-large',
      `the request line and headers are over ${maxHeaderBytes} bytes`,
    );
  if (TIMEOUT_CODES.has(code))
    return createProblem('request-timeout', 'the request was not sent in time');
  return createProblem('malformed-http', `the request could not be read: ${code || error.message}`);
}
