/** The two levels of rate limiting (spec section 1). */
export type Level = 'client' | 'caller';

/**
 * Whether caller buckets are scoped to a client (`"client"`: the same caller_id sent by two
 * clients uses two buckets) or shared by every client (`"global"`).
 */
export type CallerScope = 'client' | 'global';

/** The client part of a global caller key: no client id can be `*`. */
const ANY_CLIENT = '*';

/**
 * Builds the bucket key of a request: the one place keys are made.
 * `client:<clientId>` without a caller_id; `caller:<clientId>:<callerId>` with one
 * (`caller:*:<callerId>` when caller buckets are global).
 */
export function bucketKey(
  clientId: string,
  callerId: string | undefined,
  scope: CallerScope,
): string {
  if (callerId === undefined) {
    // Kept too, as the last caller's: a client's requests come one after another.
    if (clientId !== lastClient.clientId) {
      lastClient.clientId = clientId;
      lastClient.key = `client:${clientId}`;
    }
    return lastClient.key;
  }
  const owner = scope === 'global' ? ANY_CLIENT : clientId;
  // The key of the last caller is kept: a caller sending one request after another (a bot, a
  // backend's shared caller_id, a simulation) then finds its key made and its hash known, which
  // a Map lookup of a new string would compute again.
  if (callerId === last.callerId && owner === last.owner) return last.key;
  // Joined rather than concatenated: one flat string, where a template would make a string of
  // parts that a Map holding it as a key keeps beside its flat copy (16 bytes a caller bucket).
  const key = ['caller', owner, callerId].join(':');
  last.owner = owner;
  last.callerId = callerId;
  last.key = key;
  return key;
}

/** The last caller key made, by its parts (at first, that of two empty parts). */
const last = { owner: '', callerId: '', key: 'caller::' };

/** The last client key made, by its client (at first, that of an empty client). */
const lastClient = { clientId: '', key: 'client:' };

/** The parts of a bucket key. */
export interface BucketKeyParts {
  level: Level;
  /** Undefined for a global caller bucket. */
  clientId: string | undefined;
  callerId: string | undefined;
}

/** Splits a key made by {@link bucketKey}; undefined when the text is not such a key. */
export function parseBucketKey(key: string): BucketKeyParts | undefined {
  if (key.startsWith('client:')) {
    const clientId = key.slice('client:'.length);
    return clientId === '' ? undefined : { level: 'client', clientId, callerId: undefined };
  }
  if (key.startsWith('caller:')) {
    const rest = key.slice('caller:'.length);
    const colon = rest.indexOf(':');
    if (colon <= 0 || colon === rest.length - 1) return undefined;
    const clientId = rest.slice(0, colon);
    return {
      level: 'caller',
      clientId: clientId === ANY_CLIENT ? undefined : clientId,
      callerId: rest.slice(colon + 1),
    };
  }
  return undefined;
}

/** The level a key belongs to, read from its prefix. */
export function levelOf(key: string): Level {
  return key.charCodeAt(1) === 108 /* "l" of "client" */ ? 'client' : 'caller';
}
