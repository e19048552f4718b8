import type { Operation, ResolvedConfig } from '../core/config/config.js';
import type { InputRules } from '../core/service/input-rules.js';
import { operationPath } from '../core/service/service-routes.js';
import { fieldSchema } from './field-schema.js';
import { describeAnswers } from './operation-answers.js';
import type { OperationObject, ParameterObject } from './openapi-types.js';
import { schemaRef } from './problem-schemas.js';

const JSON_TYPE = 'application/json';

/** What every operation has besides its own: tag, security and answers. */
type Common = Pick<OperationObject, 'tags' | 'security' | 'responses'>;

/** How an operation is counted under `config`, in words. */
function describeCounting(config: ResolvedConfig, operation: Operation): string {
  const { caller, client, cost } = config.limits;
  const tokens = cost[operation];
  return `Counted in the caller bucket of \`caller_id\` when one is sent (${caller.burst} tokens, refilling at ${caller.rateText}), else in the client bucket (${client.burst} tokens at ${client.rateText}); costs ${tokens} token${tokens === 1 ? '' : 's'}.`;
}

function queryParameter(
  name: 'email' | 'phone_number' | 'caller_id',
  rules: InputRules,
  description: string | undefined,
): ParameterObject {
  const rule = rules[name];
  return {
    name,
    in: 'query',
    required: false,
    description: description ?? rule.description,
    schema: fieldSchema(rule),
    example: rule.example,
  };
}

/** `GET /v1/users/exists`: its query parameters. */
function describeExists(
  config: ResolvedConfig,
  rules: InputRules,
  common: Common,
): OperationObject {
  return {
    operationId: 'exists',
    summary: 'Check whether a user exists',
    description: `Looks a user up by e-mail or by phone number: give exactly one of \`email\` and \`phone_number\`. Not scoped to a merchant. ${describeCounting(config, 'exists')} Unknown query parameters are ignored; a parameter given twice is refused.`,
    parameters: [
      queryParameter('email', rules, 'The e-mail of the user to look up (or give `phone_number`).'),
      queryParameter(
        'phone_number',
        rules,
        'The phone number of the user to look up, instead of `email`.',
      ),
      queryParameter('caller_id', rules, undefined),
    ],
    ...common,
  };
}

/** The example body of start or verify, with the shopper's caller_id. */
function bodyExample(operation: 'start' | 'verify', rules: InputRules) {
  const callerId = rules.caller_id.example;
  return operation === 'start'
    ? { email: rules.email.example, caller_id: callerId }
    : {
        email: rules.email.example,
        verification_code: rules.verification_code.example,
        caller_id: callerId,
      };
}

/** `POST .../passwordless/start` or `verify`: the merchant in the path, a JSON body. */
function describePasswordless(
  config: ResolvedConfig,
  operation: 'start' | 'verify',
  rules: InputRules,
  merchantId: string,
  common: Common,
): OperationObject {
  const counting = describeCounting(config, operation);
  return {
    operationId: operation,
    summary:
      operation === 'start'
        ? 'Start a passwordless sign-in (send a code)'
        : 'Verify the code of a passwordless sign-in',
    description:
      operation === 'start'
        ? `Issues a one-time code of ${config.otp.length} digits for (merchant, e-mail), replacing any earlier one, valid ${Math.round(config.otp.ttlMs / 1000)} s for ${config.otp.maxAttempts} wrong attempts. The code is never in the answer: the user receives it (the emulator shows it in its dev API and log). ${counting}`
        : `Signs the user in with the code of the latest start at this merchant; a code works once. A wrong code is 422 with the attempts left; past ${config.otp.maxAttempts} wrong codes the code dies (403). ${counting}`,
    parameters: [
      {
        name: 'merchant_id',
        in: 'path',
        required: true,
        description: 'The merchant, which must belong to the client of the access token.',
        schema: schemaRef('MerchantId'),
        example: merchantId,
      },
    ],
    requestBody: {
      description: `A JSON object (\`application/json\` or another \`application/*+json\` type) of at most ${config.maxBodyBytes} bytes.`,
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: schemaRef(operation === 'start' ? 'StartRequest' : 'VerifyRequest'),
          examples: {
            'with-caller-id': {
              summary: 'With the caller_id of the shopper (recommended)',
              value: bodyExample(operation, rules),
            },
          },
        },
      },
    },
    ...common,
  };
}

/** One operation: its parameters, body, success and every problem, with examples. */
export function describeOperation(
  config: ResolvedConfig,
  operation: Operation,
  rules: InputRules,
  merchantId: string,
): OperationObject {
  const path = operationPath(operation, merchantId);
  const common: Common = {
    tags: [operation === 'exists' ? 'users' : 'passwordless'],
    security: [{ bearerAuth: [] }],
    responses: describeAnswers({ operation, path, merchantId, rules, config }),
  };
  return operation === 'exists'
    ? describeExists(config, rules, common)
    : describePasswordless(config, operation, rules, merchantId, common);
}
