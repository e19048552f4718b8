import { RECORD_TEXT_MAX } from '../records/records.js';
import {
  CHECK_RULES_MAX,
  CHECK_TEXT_MAX_LENGTH,
  COUNT_MAX,
  ISO_TIME_MAX_LENGTH,
} from './dev-api-bounds.js';
import { array, integer, schemaLink, string, type JsonSchemaData } from './json-schema-data.js';

/** How many of something the report counted. */
const count = integer(0, COUNT_MAX);
const time = string(ISO_TIME_MAX_LENGTH, { format: 'date-time' });
const checkText = string(CHECK_TEXT_MAX_LENGTH);
const ruleId = string(64, { pattern: '^[a-z0-9-]+$', description: 'A rule of `uas check`.' });
const severity = { enum: ['error', 'warn'] };
/** Most request ids and values a finding's evidence lists. */
const EXAMPLES = 5;

/** Counts by a key (an operation, a status, a number of attempts). */
const countsBy = (description: string): JsonSchemaData => ({
  type: 'object',
  description,
  additionalProperties: count,
});

/**
 * The schemas of what `GET /__uas/check` answers: `uas check`'s report on the journal (see
 * `CheckReport` of `src/check`), and how many requests the journal let go.
 */
export const CHECK_REPORT_SCHEMAS = {
  CheckReport: {
    type: 'object',
    description:
      'The report of uas check on the requests the emulator has seen: a summary, the findings worst first, every rule with its status, and what it could not judge.',
    required: ['summary', 'findings', 'rules', 'dropped'],
    additionalProperties: false,
    properties: {
      summary: schemaLink('CheckSummary'),
      findings: array(CHECK_RULES_MAX, schemaLink('Finding'), 'Broken rules, worst first.'),
      rules: array(CHECK_RULES_MAX, schemaLink('RuleResult'), 'Every rule, in catalog order.'),
      warnings: array(
        1,
        checkText,
        'What the report could not judge, one sentence each (requests the journal let go); absent when nothing was left out.',
      ),
      dropped: integer(0, COUNT_MAX, 'Requests the journal let go: not judged.'),
    },
  },
  CheckSummary: {
    type: 'object',
    description: 'What the records held, whatever the rules say.',
    additionalProperties: false,
    required: [
      'requests',
      'ignored',
      'by_operation',
      'by_status',
      'end_users',
      'caller_ids',
      'rate_limited',
      'logical_requests',
      'retried',
      'attempts',
      'retry_delay_ms',
      'retry_delay_beyond_retry_after_ms',
      'span',
    ],
    properties: {
      requests: count,
      ignored: count,
      by_operation: countsBy('Requests by operation.'),
      by_status: countsBy('Requests by status code (as text, such as "429").'),
      end_users: count,
      caller_ids: count,
      rate_limited: count,
      logical_requests: count,
      retried: count,
      attempts: countsBy('Logical requests by number of attempts (as text, such as "2").'),
      retry_delay_ms: { oneOf: [schemaLink('DelayStats'), { type: 'null' }] },
      retry_delay_beyond_retry_after_ms: {
        oneOf: [schemaLink('DelayStats'), { type: 'null' }],
      },
      span: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['from', 'to', 'duration_ms'],
            properties: { from: time, to: time, duration_ms: { type: 'number', minimum: 0 } },
          },
          { type: 'null' },
        ],
      },
    },
  },
  DelayStats: {
    type: 'object',
    description: 'Smallest, median and largest of a set of durations in milliseconds.',
    additionalProperties: false,
    required: ['count', 'min', 'median', 'max'],
    properties: {
      count,
      min: { type: 'number' },
      median: { type: 'number' },
      max: { type: 'number' },
    },
  },
  Finding: {
    type: 'object',
    description: 'One broken rule, with what it rests on.',
    additionalProperties: false,
    required: ['rule', 'severity', 'message', 'spec', 'docs', 'fix', 'evidence'],
    properties: {
      rule: ruleId,
      severity,
      message: checkText,
      spec: checkText,
      docs: {
        ...checkText,
        description:
          "Where the rule is explained, the spec's text quoted: docs/check-rules.md#<rule id>, in the uas package and repository.",
      },
      fix: checkText,
      evidence: schemaLink('Evidence'),
    },
  },
  Evidence: {
    type: 'object',
    additionalProperties: false,
    required: ['count', 'examples', 'values', 'figures', 'requests'],
    properties: {
      count,
      examples: array(
        EXAMPLES,
        integer(0, COUNT_MAX),
        'Ids of requests that show it, oldest first.',
      ),
      values: array(EXAMPLES, checkText, 'Example values, as sent.'),
      figures: {
        type: 'object',
        description: 'Figures the rule measured, by name.',
        additionalProperties: { type: 'number' },
      },
      requests: array(EXAMPLES, schemaLink('EvidenceRequest'), 'The requests of `examples`.'),
    },
  },
  EvidenceRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'time', 'method', 'path', 'status', 'fields'],
    properties: {
      id: integer(0, COUNT_MAX),
      time,
      method: string(RECORD_TEXT_MAX),
      path: string(RECORD_TEXT_MAX),
      status: integer(0, 999),
      fields: { type: ['object', 'null'] },
    },
  },
  RuleResult: {
    type: 'object',
    additionalProperties: false,
    required: ['rule', 'severity', 'status'],
    properties: {
      rule: ruleId,
      severity,
      status: { enum: ['passed', 'failed', 'not-exercised'] },
      reason: checkText,
    },
  },
} as const satisfies Record<string, JsonSchemaData>;
