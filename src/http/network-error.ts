/**
 * What kind of failure left a request without a whole answer:
 * - `refused`: nothing listens at the address (`ECONNREFUSED`);
 * - `reset`: the connection was reset or closed by the other side (`ECONNRESET`, "other side closed");
 * - `dns`: the host name does not resolve (`ENOTFOUND`, `EAI_AGAIN`);
 * - `tls`: the TLS handshake or the server's certificate failed;
 * - `timeout`: the deadline passed (the attempt's, or a connect timeout);
 * - `unreachable`: no route to the host or its network (`EHOSTUNREACH`, `ENETUNREACH`);
 * - `malformed`: the server's answer is not HTTP (`HPE_*`), or its body disagrees with its length;
 * - `blocked`: a port fetch never connects to (`bad port`: 6000, 6667, ...);
 * - `other`: anything else (a URL fetch refuses, ...).
 */
export type NetworkErrorKind =
  | 'refused'
  | 'reset'
  | 'dns'
  | 'tls'
  | 'timeout'
  | 'unreachable'
  | 'malformed'
  | 'blocked'
  | 'other';

/** A fetch failure, as Node's fetch (undici) throws it: the system error is its cause. */
interface FetchFailure {
  name?: string;
  message?: string;
  code?: string;
  cause?: { code?: string; message?: string; name?: string };
}

/**
 * The name of the error Node's fetch gives for an answer that is not HTTP. Node 20's carries the
 * parser's code (`HPE_INVALID_CONSTANT`); Node 24's leaves the code undefined, so the name is what
 * says it.
 */
const PARSER_ERROR = 'HTTPParserError';

/**
 * Says why a fetch failed, as specifically as Node tells it: `ECONNREFUSED: connect ...`,
 * `timed out`, `bad port: ...` (a port fetch blocks), or the error's own message.
 */
export function describeNetworkError(error: unknown): string {
  const failure = error as FetchFailure;
  if (failure.name === 'TimeoutError') return 'timed out';
  const cause = failure.cause;
  const code = cause?.code ?? (cause?.name === PARSER_ERROR ? PARSER_ERROR : undefined);
  if (code !== undefined) {
    if (NOT_TLS.test(code)) return `${code}: ${NOT_TLS_SAID}`;
    const message = cause?.message ? oneLine(openSslReason(cause.message)) : '';
    return `${code}${message ? `: ${message}` : ''}`;
  }
  if (cause?.message === 'bad port') return BAD_PORT;
  if (cause?.message !== undefined) return cause.message;
  return failure.message ?? String(error);
}

/**
 * The codes OpenSSL gives when what came back to a TLS hello is not TLS: most often an `http:`
 * server addressed with `https:`.
 */
const NOT_TLS = /^ERR_SSL_(?:WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG)$/;
const NOT_TLS_SAID = 'the server does not speak TLS at this address (use http://)';

/**
 * The reason of an OpenSSL error string (`803C...:error:0A00010B:SSL routines:ssl3_get_record:wrong
 * version number:../deps/openssl/...:350:`, newline included), or the message as it is.
 */
function openSslReason(message: string): string {
  return /^[0-9A-F]+:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/.exec(message)?.[1] ?? message;
}

/** A message on one line: a line break and the white space around it become one space. */
function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/**
 * What Node's fetch says, `bad port`, of a port the Fetch standard blocks (6000, 6665 to 6669,
 * 10080 and others that browsers refuse too), worded so that whoever serves there knows to move:
 * `uas serve` listens on such a port, but no fetch (uas's own clients included) connects to it.
 */
const BAD_PORT =
  'bad port: fetch refuses to connect to this port, as browsers do (a port the Fetch standard blocks, such as 6000); serve on another port';

const REFUSED = 'ECONNREFUSED';
const DNS = 'ENOTFOUND|EAI_AGAIN|EAI_FAIL';
const UNREACHABLE = 'EHOSTUNREACH|ENETUNREACH';

/**
 * What a server's malformed answer is called: the HTTP parser's errors (`HPE_*`), or, by newer
 * versions of Node's fetch, a body length that disagrees with its Content-Length headers.
 */
const MALFORMED = /^(?:HPE_|HTTPParserError|UND_ERR_RES_CONTENT_LENGTH_MISMATCH)/;

const KINDS: ReadonlyArray<[NetworkErrorKind, RegExp]> = [
  ['refused', new RegExp(`^${REFUSED}$`)],
  ['reset', /^(?:ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED)$/],
  ['dns', new RegExp(`^(?:${DNS})$`)],
  [
    'tls',
    /^(?:ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|ERR_OSSL_)/,
  ],
  [
    'timeout',
    /^(?:ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/,
  ],
  ['unreachable', new RegExp(`^(?:${UNREACHABLE})$`)],
  ['malformed', MALFORMED],
];

/** Sorts a fetch failure (or a body read's) into a {@link NetworkErrorKind}, by its system error code. */
export function classifyNetworkError(error: unknown): NetworkErrorKind {
  const failure = error as FetchFailure | null;
  if (failure?.name === 'TimeoutError') return 'timeout';
  if (failure?.cause?.message === 'bad port') return 'blocked';
  const code =
    failure?.cause?.code ??
    failure?.code ??
    (failure?.cause?.name === PARSER_ERROR ? PARSER_ERROR : undefined);
  if (typeof code !== 'string') return 'other';
  return KINDS.find(([, pattern]) => pattern.test(code))?.[0] ?? 'other';
}

/**
 * Whether a failure of this kind left the request unsent (no connection was made), so repeating
 * it cannot run it twice: the kinds {@link NOT_SENT} says, for an error in words.
 */
export function wasNeverSent(kind: NetworkErrorKind): boolean {
  return kind === 'refused' || kind === 'dns' || kind === 'unreachable' || kind === 'blocked';
}

/** Connection errors where the request never left, in the words of {@link describeNetworkError}. */
const NOT_SENT = new RegExp(`${REFUSED}|${DNS}|${UNREACHABLE}`);

/**
 * Says for people why `base` gave no whole answer, from the error of the last attempt (as
 * {@link describeNetworkError} words it): `cannot reach` only when no connection was made; a
 * server that answered, with malformed HTTP or a body cut short, is not called unreachable.
 * `answered`: a status line came.
 */
export function describeNoAnswer(base: string, error: string, answered: boolean): string {
  if (answered) return `no whole answer from ${base}: ${error}`;
  if (NOT_SENT.test(error)) return `cannot reach ${base}: ${error}`;
  if (MALFORMED.test(error)) return `${base} answered with malformed HTTP: ${error}`;
  return `no answer from ${base}: ${error}`;
}
