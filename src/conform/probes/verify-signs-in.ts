import type { ConformOptions } from '../conform-options.js';
import type { ConformRequest } from '../conform-request.js';
import type { ProbeExchange } from '../conform-sender.js';
import { answerDifferences, answerMember, bodyExcerpt } from '../judge-answer.js';
import { probeOutcome, type Probe, type ProbeOutcome } from '../probe.js';
import { needsUser } from '../probe-needs.js';
import { callerOf, devApiCodeRequest, passwordlessRequest } from '../probe-requests.js';

/** The verify request of verify.signs-in, with the code read from the dev API. */
function verifyWith(options: ConformOptions, code: string): ConformRequest {
  return passwordlessRequest('verify', options.merchantId ?? '', {
    email: options.email,
    verification_code: code,
    caller_id: callerOf(options, 'c'),
  });
}

/** The code the dev API gave, when it gave one: only digits are sent on as a code. */
function codeOf(read: ProbeExchange): string | undefined {
  const code = read.status === 200 ? answerMember(read, 'code') : undefined;
  // The dev API's answer is not trusted further.
  return typeof code === 'string' && /^\d{1,32}$/.test(code) ? code : undefined;
}

/** Whether the signed-in answer names the user and the merchant asked about. */
function identityDifferences(
  options: ConformOptions,
  exchange: ProbeExchange,
  quote: (text: string) => string,
): string[] {
  const email = options.email as string;
  const merchantId = options.merchantId as string;
  const got = {
    email: answerMember(exchange, 'email'),
    merchant_id: answerMember(exchange, 'merchant_id'),
  };
  const differences: string[] = [];
  if (String(got.email).toLowerCase() !== email.toLowerCase())
    differences.push(
      `expected "email": ${JSON.stringify(email)}, got ${quote(String(JSON.stringify(got.email)))}`,
    );
  if (String(got.merchant_id).toLowerCase() !== merchantId.toLowerCase())
    differences.push(
      `expected "merchant_id": ${JSON.stringify(merchantId)}, got ${quote(String(JSON.stringify(got.merchant_id)))}`,
    );
  return differences;
}

/**
 * Reads the code start issued from a uas emulator's dev API, then sends verify the right code
 * (2 requests: the dev API's counts too).
 */
export const verifySignsIn: Probe = {
  id: 'verify.signs-in',
  title: 'verify answers 200 with the documented body for the right code (read from a uas dev API)',
  unavailable: (options) =>
    !options.devApi
      ? 'needs --dev-api: the target is a uas emulator whose dev API gives the code'
      : needsUser(options),
  plan: (options) => [
    { request: devApiCodeRequest(options.email ?? '', options.merchantId ?? '') },
    { request: verifyWith(options, '<the code>') },
  ],
  cost: () => 2,
  async run(context, [readCode]): Promise<ProbeOutcome> {
    const { options } = context;
    if (!context.state.started) return { skip: 'start.sends-code did not issue a code' };
    const read = await context.send('dev-api', readCode!);
    const code = codeOf(read);
    if (code === undefined)
      return probeOutcome([
        `the dev API did not give a code: ${read.status ?? 'no answer'}${read.status === undefined ? ` (${read.error})` : context.quote(bodyExcerpt(read.body))}`,
      ]);
    const exchange = await context.send('verify', verifyWith(options, code));
    const differences = answerDifferences(context, 'verify', exchange, 200);
    return probeOutcome(
      differences.length > 0 ? differences : identityDifferences(options, exchange, context.quote),
    );
  },
};
