import type { HeaderStyle } from '../../core/config/config-schema.js';
import type { ResponseValidator } from '../../contract/response-validator.js';
import type { ConformRequest, Exchange } from './conform-sender.js';
import type { SuiteTarget } from './conform-requests.js';

/** How a check ended. */
export type CheckStatus = 'pass' | 'fail' | 'skip';

/** A check's result, as reported. */
export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  /** Requests it sent. */
  requests: number;
  /** On a failure: each difference between the answers and the contract. */
  differences: string[];
  /** On a skip: why. */
  reason: string | undefined;
}

/** What the suite was asked to do. */
export interface SuiteOptions extends SuiteTarget {
  /** Run the checks that empty a caller bucket (they spend real quota). */
  exhaust: boolean;
  /** Read the one-time code from a uas emulator's dev API, to check verify's success answer. */
  devApi: boolean;
  /** The rate-limit field style expected. */
  style: HeaderStyle;
  /** The longest Retry-After the suite waits. */
  maxWaitMs: number;
}

/** An answer of the service kept for the checks that judge them all, with its operation. */
export interface Answered {
  operation: 'exists' | 'start' | 'verify';
  exchange: Exchange;
}

/** What a check runs with. */
export interface CheckContext {
  options: SuiteOptions;
  /** Sends a request of an operation; the answer is kept for the rate-limit field check. */
  send(operation: Answered['operation'] | 'dev-api', request: ConformRequest): Promise<Exchange>;
  /** Requests the budget still allows. */
  remaining(): number;
  validator: ResponseValidator;
  /** Waits, on the injected clock. */
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Every answer of the service so far. */
  answers: Answered[];
  /** What earlier checks learnt, for later ones. */
  state: SuiteState;
}

/** What checks leave for later ones. */
export interface SuiteState {
  /** The answers to the first requests with caller_id `a`. */
  callerA: Exchange[];
  /** Whether start issued a code. */
  started: boolean;
  /** The 429 that ended the exhaustion, and the caller_id it was for. */
  limited: Exchange | undefined;
}

/** What running a check came to. */
export type CheckOutcome = { differences: string[] } | { skip: string };

/** One check of the suite. */
export interface Check {
  id: string;
  title: string;
  /** Why it cannot run with these options; undefined when it can. */
  unavailable(options: SuiteOptions): string | undefined;
  /**
   * The requests it sends, in order, for --dry-run; `repeat` describes one sent more than once.
   * `run` is given these very requests, so a dry run shows what is sent.
   */
  plan(options: SuiteOptions): Array<{ request: ConformRequest; repeat?: string }>;
  /** At most how many requests it sends now (the budget is checked before it starts). */
  cost(context: CheckContext): number;
  run(context: CheckContext, planned: ConformRequest[]): Promise<CheckOutcome>;
}
