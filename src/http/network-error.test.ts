import { describe, expect, it } from 'vitest';
import {
  classifyNetworkError,
  describeNetworkError,
  describeNoAnswer,
  wasNeverSent,
} from './network-error.js';

/** A failure as Node's fetch throws it: a TypeError whose cause is the system error. */
const fetchFailed = (code: string, message = 'x') =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

describe('classifyNetworkError', () => {
  it.each([
    ['ECONNREFUSED', 'refused'],
    ['ECONNRESET', 'reset'],
    ['UND_ERR_SOCKET', 'reset'],
    ['EPIPE', 'reset'],
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
    ['EPROTO', 'tls'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout'],
    ['ETIMEDOUT', 'timeout'],
    ['EHOSTUNREACH', 'unreachable'],
    ['ENETUNREACH', 'unreachable'],
    ['HPE_INVALID_CONSTANT', 'malformed'],
    ['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'malformed'],
    ['EWHATEVER', 'other'],
  ] as const)('sorts %s as %s', (code, kind) => {
    expect(classifyNetworkError(fetchFailed(code))).toBe(kind);
  });

  it('sorts a parser error without a code (Node 24 fetch) as malformed, and names it', () => {
    const cause = Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), {
      name: 'HTTPParserError',
      code: undefined,
    });
    const failure = new TypeError('fetch failed', { cause });
    expect(classifyNetworkError(failure)).toBe('malformed');
    const said = describeNetworkError(failure);
    expect(said).toBe('HTTPParserError: Response does not match the HTTP/1.1 protocol');
    expect(describeNoAnswer('http://h', said, false)).toBe(
      `http://h answered with malformed HTTP: ${said}`,
    );
  });

  it('sorts the deadline of AbortSignal.timeout as a timeout, a port fetch blocks as blocked, and anything else without a code as other', () => {
    expect(classifyNetworkError(new DOMException('aborted', 'TimeoutError'))).toBe('timeout');
    expect(
      classifyNetworkError(new TypeError('fetch failed', { cause: new Error('bad port') })),
    ).toBe('blocked');
    expect(
      classifyNetworkError(new TypeError('fetch failed', { cause: new Error('no route') })),
    ).toBe('other');
    expect(classifyNetworkError('a string')).toBe('other');
    expect(classifyNetworkError(null)).toBe('other');
  });

  it('says a request never left only when no connection was made', () => {
    expect(['refused', 'dns', 'unreachable'].every((kind) => wasNeverSent(kind as never))).toBe(
      true,
    );
    for (const kind of ['reset', 'tls', 'timeout', 'malformed', 'other'] as const)
      expect(wasNeverSent(kind)).toBe(false);
  });
});

describe('describeNetworkError and describeNoAnswer', () => {
  it('words a failure by its code and message, a timeout as timed out', () => {
    expect(
      describeNetworkError(fetchFailed('ECONNREFUSED', 'connect ECONNREFUSED 1.2.3.4:5')),
    ).toBe('ECONNREFUSED: connect ECONNREFUSED 1.2.3.4:5');
    expect(describeNetworkError(new DOMException('aborted', 'TimeoutError'))).toBe('timed out');
  });

  it('says an answer that is not TLS is likely an http server, on one line', () => {
    const openSsl =
      '803C2464E47F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n';
    expect(describeNetworkError(fetchFailed('ERR_SSL_WRONG_VERSION_NUMBER', openSsl))).toBe(
      'ERR_SSL_WRONG_VERSION_NUMBER: the server does not speak TLS at this address (use http://)',
    );
    expect(
      describeNetworkError(
        fetchFailed(
          'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
          '40:error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:../ssl/record/rec_layer_s3.c:1590:SSL alert number 40\n',
        ),
      ),
    ).toBe('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: sslv3 alert handshake failure');
    expect(describeNetworkError(fetchFailed('EWHATEVER', 'first\n  second\n'))).toBe(
      'EWHATEVER: first second',
    );
  });

  it('calls a base unreachable only when no connection was made', () => {
    expect(describeNoAnswer('http://h', 'ECONNREFUSED: x', false)).toBe(
      'cannot reach http://h: ECONNREFUSED: x',
    );
    expect(describeNoAnswer('http://h', 'HPE_INVALID_CONSTANT: x', false)).toBe(
      'http://h answered with malformed HTTP: HPE_INVALID_CONSTANT: x',
    );
    expect(describeNoAnswer('http://h', 'timed out', false)).toBe(
      'no answer from http://h: timed out',
    );
    expect(describeNoAnswer('http://h', 'cut short', true)).toBe(
      'no whole answer from http://h: cut short',
    );
  });
});
