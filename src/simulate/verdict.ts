import { parseRate, refillPerMs } from '../core/config/rate.js';
import { pluralize } from '../text/pluralize.js';
import type { FlowEnd, ModeReport } from './simulation-report.js';
import type { Mode } from './scenario.js';
import { formatShare } from './share.js';

/**
 * The share of the sign-ins that arrived that must complete for shoppers to count as served:
 * fewer, whatever the sign-ins still running do, and shoppers are hurt.
 */
export const HURT_BELOW_PERCENT = 95;
/**
 * Above this percentage of its requests through, the bot is unchecked, when what its bucket
 * allows is not known (a live run against a server whose limits the scenario did not set).
 */
export const UNCHECKED_ABOVE_PERCENT = 50;

/**
 * The bucket the bot's requests land in, as the scenario set it, and how long the bot ran: what
 * that bucket can let through is `burst + rate x windowMs`.
 */
export interface BotBucket {
  burst: number;
  /** Such as "1/s". */
  rate: string;
  /** From the bot's start to its stop. */
  windowMs: number;
}

/**
 * Requests past what the bot's bucket allows before it counts as unchecked: one, and 1% of the
 * allowance, for a live run's timing (a request that reached the server a little later than
 * sent finds a little more refilled).
 */
const SLACK_PERCENT = 1;

/** Where the bot's requests land, in each mode, as a verdict names it. */
const BOT_BUCKET: Record<Mode, string> = {
  shared: 'the client bucket it shares with the shoppers',
  'per-caller': 'its own caller bucket',
  static: 'the caller bucket it shares with the shoppers',
  rotating: 'one caller bucket',
};

/** The bucket shoppers and the bot both land in, in the modes where they share one. */
const SHARED_BUCKET: Partial<Record<Mode, string>> = {
  shared: 'nobody sends caller_id, so the shoppers share the one client bucket',
  static: 'every request sends the same caller_id, so the shoppers share one caller bucket',
};

/**
 * `"a of the b things (share)"` ("1 of the 1 sign-in"), the share computed from the two counts
 * stated; with sign-ins still running at the end, `"(share; n still running)"`.
 */
const count = (
  part: number,
  whole: number,
  owner: 'the' | 'its',
  noun: 'sign-in' | 'request',
  verb: string,
  unfinished = 0,
) =>
  `${part} of ${owner} ${pluralize(whole, noun)} ${verb} (${formatShare(part, whole) ?? '-'}${unfinished === 0 ? '' : `; ${unfinished} still running`})`;

/** The most requests the bot's bucket can let through over the bot's window. */
export function botAllowance(bucket: BotBucket): number {
  const rate = parseRate(bucket.rate);
  return bucket.burst + (rate === undefined ? 0 : refillPerMs(rate) * bucket.windowMs);
}

/**
 * One line on what a mode's numbers say, made only from numbers of the report that it states
 * (or that it names as zero), so it cannot claim more than the run showed. Claims about shoppers
 * are made of the sign-ins that arrived (the table's "sign-ins completed"), and only when they
 * hold whatever the sign-ins still running at the end would have done:
 *
 * - `too short to judge` when no sign-in ended, or when the sign-ins still running decide whether
 *   95% of those that arrived complete;
 * - `shoppers hurt` when more than 5% of the sign-ins that arrived failed (fewer than 95% can have
 *   completed). The bot is blamed only in a mode where it shares the shoppers' bucket and only
 *   when, in the time bins where shoppers were refused, it got more requests through than they
 *   did; otherwise the shoppers of a shared or static mode exhausted their one bucket themselves
 *   (or with the bot's help);
 * - `no attack` when the bot sent nothing (nothing to be protected from);
 * - `bot unchecked` when the bot got more requests through than the bucket it lands in allows
 *   over its window (`burst + rate x window`, with a slack of 1 and 1%), as a rotating bot with
 *   a new bucket for each request does; where that bucket is not known (`botBucket` undefined),
 *   when more than half of them got through;
 * - `protected` when at least 95% of the sign-ins that arrived completed while most of the bot's
 *   requests were refused;
 * - `bot within its limit` when they completed while more than half of the bot's requests got
 *   through, but no more than its bucket allows: it was held to the rate the scenario set, or
 *   sent no faster.
 */
export function verdictOf(
  report: Omit<ModeReport, 'verdict'>,
  flowsEndAt: FlowEnd = 'verify',
  botBucket?: BotBucket,
): string {
  // Where codes cannot be read, a sign-in ends at start: it is said to reach start, not to complete.
  const [completedVerb, complete] =
    flowsEndAt === 'start' ? ['reached start', 'reach start'] : ['completed', 'complete'];
  const { arrived, completed, failed, rate_limited: rateLimited, unfinished } = report.shoppers;
  const ended = completed + failed;
  const bot = report.bot;
  const botLine =
    bot.requests === 0
      ? 'the bot sent no requests'
      : `the bot got ${count(bot.allowed, bot.requests, 'its', 'request', 'through')}`;
  if (ended === 0)
    return `too short to judge: no sign-in ended within the run (${unfinished} still running); ${botLine}`;
  // Whole numbers on both sides: no rounding can move the line.
  if ((completed + unfinished) * 100 < HURT_BELOW_PERCENT * arrived) {
    const hurt = `shoppers hurt: ${count(failed, arrived, 'the', 'sign-in', 'failed', unfinished)}`;
    const otherErrors = failed - rateLimited;
    if (rateLimited === 0) return `${hurt}, none of them on 429`;
    const on429 = otherErrors === 0 ? '' : `, ${rateLimited} of them`;
    const rest = otherErrors === 0 ? '' : `; ${otherErrors} on other errors`;
    return `${hurt}${on429} ${causeOf429(report)}${rest}`;
  }
  const completedLine = count(completed, arrived, 'the', 'sign-in', completedVerb, unfinished);
  if (bot.requests === 0) return `no attack: the bot sent no requests; ${completedLine}`;
  const mostThrough = bot.allowed * 100 > UNCHECKED_ABOVE_PERCENT * bot.requests;
  const allows = botBucket === undefined ? undefined : botAllowance(botBucket);
  const overLimit =
    allows === undefined ? mostThrough : bot.allowed > allows + 1 + (allows * SLACK_PERCENT) / 100;
  if (overLimit) {
    const passed = `bot unchecked: ${count(bot.allowed, bot.requests, 'its', 'request', 'passed')}`;
    return report.mode === 'rotating'
      ? `${passed}; a new caller_id per request always finds a full bucket, so per-caller buckets alone cannot stop it (UNPROTECTED)`
      : passed;
  }
  if (completed * 100 >= HURT_BELOW_PERCENT * arrived) {
    if (!mostThrough || botBucket === undefined || allows === undefined)
      return `protected: ${completedLine} while ${botLine}`;
    const seconds = Math.round(botBucket.windowMs / 100) / 10;
    return `bot within its limit: ${botLine}, no more than ${BOT_BUCKET[report.mode]} allows (${pluralize(botBucket.burst, 'token')} at ${botBucket.rate} over ${seconds} s: ${Math.floor(allows)}); ${completedLine}`;
  }
  return `too short to judge: ${completedLine}, so whether ${HURT_BELOW_PERCENT}% ${complete} depends on how those end; ${botLine}`;
}

/**
 * Why shoppers were refused with 429, from who got requests through in the time bins where they
 * were: the bot is blamed for draining a bucket only when it shares it and took most of them.
 */
function causeOf429(report: Omit<ModeReport, 'verdict'>): string {
  const refusing = report.timeline.filter((bin) => bin.shopper_rejected_429 > 0);
  const bot = refusing.reduce((sum, bin) => sum + bin.bot_allowed, 0);
  const shoppers = refusing.reduce(
    (sum, bin) => sum + bin.shopper_requests - bin.shopper_rejected_429,
    0,
  );
  const shared = SHARED_BUCKET[report.mode];
  if (shared === undefined) return 'on 429 from their own caller buckets';
  const tally = `while shoppers were refused, the bot got ${pluralize(bot, 'request')} through and the shoppers ${shoppers}`;
  if (bot > shoppers) return `because the bot drained the one bucket they share with it: ${tally}`;
  if (bot > 0) return `because ${shared} and exhaust it, with the bot's help: ${tally}`;
  const absent =
    report.bot.requests === 0
      ? 'the bot sent no requests'
      : 'the bot got 0 requests through while they were refused';
  return `because ${shared} and exhaust it themselves (${absent})`;
}
