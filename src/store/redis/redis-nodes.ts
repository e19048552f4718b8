import type { Redis } from 'ioredis';
import type { RedisClient } from './scripted-redis.js';

/**
 * The servers that hold keys: the one server, or each master of a cluster as ioredis knows them
 * now. A scan of keys goes over each (a cluster's SCAN answers for one node only).
 */
export function mastersOf(redis: RedisClient): Redis[] {
  return 'nodes' in redis ? redis.nodes('master') : [redis];
}

/**
 * How many clients subscribe to `channel`: on a cluster, summed over every node (each counts
 * only the subscribers connected to it, while a message published reaches all of them).
 */
export async function subscriberCount(redis: RedisClient, channel: string): Promise<number> {
  const nodes = 'nodes' in redis ? redis.nodes('all') : [redis];
  const replies = await Promise.all(nodes.map((node) => node.pubsub('NUMSUB', channel)));
  return replies.reduce<number>(
    (sum, reply) => sum + Number((reply as unknown[] | undefined)?.[1] ?? 0),
    0,
  );
}
