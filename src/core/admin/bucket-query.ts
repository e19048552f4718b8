import * as z from 'zod/mini';
import { ConfigError } from '../config/config-error.js';
import { describeIssues } from '../config/config-schema.js';
import { whole } from '../config/schema-kit.js';
import type { BucketQuery } from '../store/emulator-store.js';
import { COUNT_MAX } from './dev-api-bounds.js';

/** A query of buckets as `listBuckets()` takes it: the fields it documents, of their types. */
const bucketQuerySchema = z.optional(
  z.strictObject({
    level: z.optional(z.enum(['client', 'caller'])),
    clientId: z.optional(z.string()),
    search: z.optional(z.string()),
    sort: z.optional(z.enum(['pressure', 'recent', 'key', 'rejected'])),
    after: z.optional(z.string()),
    offset: z.optional(whole(0, COUNT_MAX)),
    limit: z.optional(whole(0, COUNT_MAX)),
  }),
);

/**
 * Throws a ConfigError naming each field of a query that `listBuckets()` does not take, as
 * `GET /__uas/buckets` answers 400: a sort it does not have threw from inside, an offset given as
 * text was added to as text, and a misspelt field was ignored.
 */
export function checkBucketQuery(query: BucketQuery): void {
  const parsed = bucketQuerySchema.safeParse(query, { reportInput: true });
  if (!parsed.success)
    throw new ConfigError(
      describeIssues(parsed.error, bucketQuerySchema),
      'invalid query of buckets',
    );
}
