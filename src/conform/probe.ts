import type { ResponseValidator } from '../contract/response-validator.js';
import type { ConformOptions } from './conform-options.js';
import type { ConformRequest } from './conform-request.js';
import type { ProbeExchange } from './conform-sender.js';

/** An answer of the service kept for the probes that judge them all, with its operation. */
export interface ServiceAnswer {
  operation: 'exists' | 'start' | 'verify';
  exchange: ProbeExchange;
}

/** What probes leave for later ones. */
export interface ProbeState {
  /** The answers to the first requests with caller_id `a`. */
  callerA: ProbeExchange[];
  /** Whether start issued a code. */
  started: boolean;
  /** The 429 that ended the exhaustion, and the caller_id it was for. */
  limited: ProbeExchange | undefined;
}

/** What a probe runs with. */
export interface ProbeContext {
  options: ConformOptions;
  /** Sends a request of an operation; the answer is kept for the rate-limit field probe. */
  send(
    operation: ServiceAnswer['operation'] | 'dev-api',
    request: ConformRequest,
  ): Promise<ProbeExchange>;
  /** Requests the budget still allows. */
  remaining(): number;
  validator: ResponseValidator;
  /** Waits, on the injected clock. */
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Every answer of the service so far. */
  answers: ServiceAnswer[];
  /** What earlier probes learnt, for later ones. */
  state: ProbeState;
  /**
   * Text the server sent (a body, a header value, a value read from them), as a report may show
   * it: the secrets of the run (tokens) redacted. Only such text is: the results, counts, ids and
   * uas's own wording never are, so a token such as `fail` or `1` cannot change them.
   */
  quote(text: string): string;
}

/** What running a probe came to. */
export type ProbeOutcome = { differences: string[] } | { skip: string };

/** A request a probe sends; `repeat` describes one sent more than once. */
export interface PlannedRequest {
  request: ConformRequest;
  repeat?: string;
}

/**
 * One probe of the suite: one file each under `probes/`, its file name its id (the dot a
 * hyphen) and its export the same in camelCase.
 */
export interface Probe {
  /** Such as `auth.required`: the family, then what is probed. */
  id: string;
  /** What it checks, in one line. */
  title: string;
  /** Why it cannot run with these options; undefined when it can. */
  unavailable(options: ConformOptions): string | undefined;
  /**
   * What it sends, in order, for --dry-run. `run` is given these very requests, so a dry run
   * shows what is sent.
   */
  plan(options: ConformOptions): PlannedRequest[];
  /** Its budget: at most how many requests it sends now (checked before it starts). */
  cost(context: ProbeContext): number;
  run(context: ProbeContext, planned: ConformRequest[]): Promise<ProbeOutcome>;
}

/** A probe's outcome from its differences: none is a pass. */
export const probeOutcome = (differences: string[]): ProbeOutcome => ({ differences });
