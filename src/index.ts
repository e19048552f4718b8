// Public API of `uas`: the emulator, its config and types, the client, the dev-API client and
// the integration check. Nothing here needs Node's built-ins, so it bundles for a browser too;
// the node:http server and the caller_id helpers are in `uas/node`.
export { createEmulator } from './emulator.js';
export type { EmulatorOptions } from './emulator.js';
export type { Emulator, CoreEmulatorOptions, DevApiOptions, BucketQuery } from './core/emulator.js';
export { createManualClock } from './core/time/clock.js';
export type { Clock, ManualClock } from './core/time/clock.js';
export { createSeededRandom } from './core/time/random.js';
export type { RandomSource } from './core/time/random.js';
export { resolveConfig, applyConfigPatch, DEFAULTS } from './core/config/config.js';
export type {
  ResolvedConfig,
  Operation,
  RetryAfterMode,
  LevelLimits,
} from './core/config/config.js';
export type { ConfigFile, HeaderStyle, LiveConfigPatch } from './core/config/config-schema.js';
export { ConfigError, isConfigError } from './core/config/config-error.js';
export { bucketKey, parseBucketKey } from './core/limits/bucket-key.js';
export type { Level, CallerScope, BucketKeyParts } from './core/limits/bucket-key.js';
export { takeTokens, peekBucket, tokensAt } from './core/limits/token-bucket.js';
export type { BucketState, BucketDecision } from './core/limits/token-bucket.js';
export type { BucketPolicy } from './core/config/bucket-policy.js';
export { parseRate, formatRate } from './core/config/rate.js';
export type { Rate } from './core/config/rate.js';
export {
  createProblem,
  isProblem,
  PROBLEM_KINDS,
  QUOTA_EXCEEDED_TYPE,
  problemType,
} from './core/service/problems.js';
export type { Problem, ProblemKind, FieldError } from './core/service/problems.js';
export type { EmulatorRequest, EmulatorResponse } from './core/service/exchange.js';
export type { EmulatorEvent, RequestRecord, CodeRecord, Outcome } from './core/records/records.js';
export type { BucketView, BucketSort } from './core/limits/bucket-view.js';
export {
  DEMO_CONFIG,
  DEMO_TOKEN,
  DEMO_MERCHANT,
  OTHER_TOKEN,
  OTHER_MERCHANT,
} from './demo-config.js';
export { VERSION } from './version.js';
export { createOpenApiDocument } from './contract/openapi-document.js';
export type { OpenApiDocumentOptions } from './contract/openapi-document.js';
export { createDevApiDocument } from './contract/dev-api-document.js';
export type { OpenApiDocument } from './contract/openapi-types.js';
export { createClient } from './client/client.js';
export type {
  Client,
  ClientOptions,
  ClientClock,
  CallResult,
  CallSuccess,
  CallHttpError,
  CallRateLimited,
  CallInvalidAnswer,
  CallNetworkError,
  CallOutcome,
  CallRequest,
  GaveUp,
  AttemptRecord,
  RetryNotice,
  ExistsAnswer,
  StartAnswer,
  VerifyAnswer,
} from './client/client.js';
export { decideRetry, RETRY_DEFAULTS } from './client/retry-policy.js';
export type { RetryOptions, RetryDecision, AttemptOutcome } from './client/retry-policy.js';
export { readRateLimit, describeRateLimit } from './client/rate-limit-state.js';
export {
  readRetryAfter,
  understandRetryAfter,
  parseHttpDate,
  MAX_RETRY_AFTER_SECONDS,
} from './client/retry-after.js';
export type { RetryAfter } from './client/retry-after.js';
export { DEFAULT_MAX_RESPONSE_BYTES } from './client/client.js';
export type { RateLimitState } from './client/rate-limit-state.js';

export { createDevClient, DevApiError, isDevApiError } from './dev-client/index.js';
export type {
  DevClient,
  DevClientOptions,
  BucketPage,
  ClockView,
  Health,
  DevApiFailure,
} from './dev-client/index.js';
export type { FaultSpec, Fault } from './core/service/faults.js';
export type { RequestFilter } from './core/admin/request-filter.js';
export type { MisplacedCallerId, CallerIdSource } from './core/records/records.js';
export {
  checkIntegration,
  assertCleanIntegration,
  expectCleanIntegration,
  CheckFailedError,
  isCheckFailedError,
  CHECK_DEFAULTS,
  CHECK_RULES,
  formatReportText,
  formatReportJunit,
  formatReportMarkdown,
  NO_COLORS,
} from './check/index.js';
export type {
  AssertCleanOptions,
  RequestSource,
  CheckOptions,
  ReportColors,
  CheckReport,
  CheckSummary,
  Finding,
  Evidence,
  RuleResult,
  RuleId,
  RuleStatus,
  Severity,
  DelayStats,
} from './check/index.js';
