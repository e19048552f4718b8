import type { Operation } from '../core/config/config.js';
import type { ProblemKind } from '../core/service/problems.js';

/**
 * What can refuse a request, in the order the request path meets it (docs/service.md, "Each request
 * passes through"): `before-bucket` problems are answered before a bucket is chosen, so they
 * carry no rate-limit fields; `bucket` problems are answered after, with the bucket's state.
 */
export type ProblemStage = 'before-bucket' | 'bucket';

/** A problem kind an operation can answer with, and when it arises. */
export interface OperationProblem {
  kind: ProblemKind;
  stage: ProblemStage;
  /** A scripted or injected answer of the emulator (`failNext`, a crash), not a refusal. */
  fault?: true;
}

/**
 * Problems of every operation: the transport's, authentication's and the faults'. A request the
 * transport cannot read as HTTP (`malformed-http`) has no operation, so it is not among them: the
 * document names it in its description (see {@link TRANSPORT_PROBLEMS}).
 */
const COMMON: OperationProblem[] = [
  { kind: 'invalid-request', stage: 'bucket' },
  { kind: 'unauthorized', stage: 'before-bucket' },
  { kind: 'request-timeout', stage: 'before-bucket' },
  { kind: 'payload-too-large', stage: 'before-bucket' },
  { kind: 'header-fields-too-large', stage: 'before-bucket' },
  { kind: 'internal-error', stage: 'before-bucket', fault: true },
  { kind: 'service-unavailable', stage: 'bucket', fault: true },
  { kind: 'store-unavailable', stage: 'before-bucket' },
  // `uas serve --upstream`: the real service could not be reached, or not in time.
  { kind: 'upstream-failed', stage: 'before-bucket', fault: true },
  { kind: 'upstream-timeout', stage: 'before-bucket', fault: true },
  // `uas serve --upstream` whose upstream leads back to itself.
  { kind: 'loop-detected', stage: 'before-bucket', fault: true },
];

/** Problems of a request that is not HTTP enough to have an operation. */
export const TRANSPORT_PROBLEMS: readonly ProblemKind[] = ['malformed-http', 'expectation-failed'];

/** Problems of a call that reads a JSON body at a merchant (start and verify). */
const BODY_AT_MERCHANT: OperationProblem[] = [
  { kind: 'malformed-json', stage: 'bucket' },
  { kind: 'merchant-forbidden', stage: 'bucket' },
  { kind: 'merchant-not-found', stage: 'bucket' },
  { kind: 'unsupported-media-type', stage: 'bucket' },
];

/**
 * The problem kinds each operation answers with (besides the 429, which has a body of its own).
 * A test holds every kind of `PROBLEM_KINDS` to this table or to the dev API's, so a new kind
 * cannot be left out of the contract.
 */
export const OPERATION_PROBLEMS: Readonly<Record<Operation, readonly OperationProblem[]>> = {
  exists: [...COMMON, { kind: 'duplicate-parameter', stage: 'bucket' }],
  start: [...COMMON, ...BODY_AT_MERCHANT, { kind: 'user-not-found', stage: 'bucket' }],
  verify: [
    ...COMMON,
    ...BODY_AT_MERCHANT,
    { kind: 'code-attempts-exhausted', stage: 'bucket' },
    { kind: 'code-not-found', stage: 'bucket' },
    { kind: 'code-used', stage: 'bucket' },
    { kind: 'code-expired', stage: 'bucket' },
    { kind: 'code-invalid', stage: 'bucket' },
  ],
};

/** Problem kinds only the dev API answers with. */
export const DEV_API_PROBLEMS: readonly ProblemKind[] = [
  'admin-token-required',
  'cross-origin-refused',
  'host-not-allowed',
  'not-found',
  'bucket-not-found',
  'code-not-found',
  'method-not-allowed',
  'clock-not-manual',
  'faults-not-applied',
  'users-not-applied',
  'codes-not-seen',
  'too-many-event-readers',
  'store-unavailable',
  'invalid-config',
  'invalid-request',
  'malformed-json',
  'unsupported-media-type',
  'payload-too-large',
  'duplicate-parameter',
  'not-implemented',
];
