import type { ClusterOptions } from 'ioredis';
import type { RedisNode } from './store-url.js';

/** What a cluster URL gives: its seed nodes, and what each connection to a node is given. */
export interface ClusterTarget {
  cluster: RedisNode[];
  username?: string | undefined;
  password?: string | undefined;
  tls: boolean;
}

/**
 * What ioredis's Cluster client is given: as a single server's connection (fail at once while a
 * node is away, within `timeoutMs` otherwise), to every node it finds from the seeds.
 */
export function clusterOptions(target: ClusterTarget, timeoutMs: number): ClusterOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    // While the cluster cannot serve a slot, the request that needs it is answered (503, or
    // open) at once, rather than after waiting for the cluster to recover.
    retryDelayOnClusterDown: 0,
    // Off: ioredis's automatic pipelines on a cluster were seen to keep failing with MOVED, for
    // good, once a master that had been stopped was back; single commands find it again.
    enableAutoPipelining: false,
    clusterRetryStrategy: (times) => Math.min(50 * 2 ** times, 2000),
    redisOptions: {
      username: target.username,
      password: target.password,
      tls: target.tls ? {} : undefined,
      maxRetriesPerRequest: 0,
      commandTimeout: timeoutMs,
      connectTimeout: Math.max(timeoutMs, 2000),
      connectionName: 'uas',
    },
  };
}
