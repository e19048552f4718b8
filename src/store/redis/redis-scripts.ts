/**
 * The Lua scripts of the Redis store. Each runs atomically on the Redis server: a bucket
 * decision, a code issued, a code checked. Time is Redis's own (`TIME`), never an instance's, so
 * instances whose clocks disagree still share one bucket exactly; with a manual clock the
 * shared manual time is passed in instead.
 *
 * Numbers cross the script boundary as text written with 17 significant digits: Redis turns a
 * Lua number into an integer (a reply) or into 14 digits (an argument), and either would round
 * fractional tokens. The memory ledger and this script make the same decision on the same input
 * (`decideTake` in the core; a test holds the two together on a real Redis).
 */

import { VERSION } from './live-version-lua.js';

/**
 * First, the deadline of `ARGV[2]` (Redis time in ms, '' for none): past it, the script returns
 * 'late' and changes nothing, since whoever sent it has given up waiting (its 503 says that
 * nothing was changed: this makes it true). Then the current time in ms: Redis's clock, or the
 * manual time given in `ARGV[1]`.
 */
const NOW = `
local t = redis.call('TIME')
if ARGV[2] ~= '' and tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000 > tonumber(ARGV[2]) then
  return 'late'
end
local now
if ARGV[1] == '' then
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[1])
end
local function num(x) return string.format('%.17g', x) end
`;

/**
 * What a field must hold to be read (anything else, written by something other than uas, makes
 * its bucket or code count as absent, never an error): `number`, a finite decimal number (no
 * `nan`, `inf` nor hex; `redis-decoders.ts` reads the same set); `instant`, such a number that is a
 * time a Date can show (`isDateTime`); `whole`, an integer of at most 15 digits (a counter).
 * The type of a key is checked first: another type is absent too.
 */
const FIELDS = `
local function number(text)
  if not text or not string.match(text, '^%-?%d*%.?%d*[eE]?[%-+]?%d*$') then return nil end
  local x = tonumber(text)
  if x == nil or x ~= x or x == math.huge or x == -math.huge then return nil end
  return x
end
local function instant(text)
  local x = number(text)
  if x == nil or x < -8.64e15 or x > 8.64e15 then return nil end
  return x
end
local function whole(text)
  if not text then return false end
  if text == '0' then return true end
  local digits = string.match(text, '^%-?([1-9]%d*)$')
  return digits ~= nil and #digits <= 15
end
`;

/**
 * `same(kept, tried)`: whether the code tried is the code kept, in time that does not depend on
 * the code kept (as `constantTimeEqual` in the core): every byte tried is compared with the
 * byte kept at its place (none past its end), the differences are accumulated, and the answer
 * is read once at the end, so that a wrong code takes as long wherever it first differs. Only
 * the length tried, which the caller knows, sets how long it takes.
 */
export const SAME_TEXT = `
local function same(kept, tried)
  local difference = 0
  if #kept ~= #tried then difference = 1 end
  for i = 1, #tried do
    difference = bit.bor(difference, bit.bxor(string.byte(kept, i) or 0, string.byte(tried, i)))
  end
  return difference == 0
end
`;

/**
 * Takes from buckets, one after the other, at one time: the takes an instance sends together
 * (those of a turn of its event loop, or of the turns while its last run was out: see
 * take-batcher.ts), in the order they were made (one round trip for many; on a Redis Cluster, one
 * take a call, since each bucket has a slot of its own). Each bucket is a hash: `t` tokens, `u`
 * updated at, counters `a`llowed, `r`ejected, `s`hadow-rejected.
 *
 * KEYS: the buckets, one per take. ARGV: [1] manual now or '', [2] '' (each take has its own
 * deadline), then for each take, in the order of KEYS: its deadline (Redis time in ms, '' for
 * none) and where in ARGV its group of arguments starts. Then the groups, one for each set of
 * arguments the takes have (takes alike share one: a run of 20 takes of one policy sends it
 * once): burst, refill per ms, cost, mode (peek, inject, decide), shadow, valid, count invalid
 * (each '1' or '0'), least and most time to live in ms, how many past policies follow (live
 * changes, oldest first), then for each: the time it ended, its burst, its refill per ms. Tokens are worked out as `tokensAt` in the core does, step by step alike, and
 * the bucket is dated as `writtenAt` dates it.
 *
 * Each bucket is read once a run and written once at its end (takes of one bucket in a run see
 * it as if each had been written at once): three commands a bucket rather than three a take.
 * Returns the time of the takes, then for each take the bucket before it (tokens and updated-at
 * as text, '' for none): the caller works out each verdict from them with the same pure function.
 * A key that is not such a bucket counts as none, and a write replaces it. A take past its own
 * deadline is answered 'late' (and '') and not made; the others of the run are.
 */
export const TAKE_SCRIPT = `${NOW}${FIELDS}
-- The counters, by their place in the HMGET read: allowed, rejected, shadow-rejected.
local COUNTERS = {[3] = 'a', [4] = 'r', [5] = 's'}
local clock = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local nowText = num(now)
-- Each group of arguments is read once a run, however many takes share it.
local groups = {}
local function group(o)
  local g = groups[o]
  if g ~= nil then return g end
  local changes = tonumber(ARGV[o + 9])
  g = {burst = tonumber(ARGV[o]), rate = tonumber(ARGV[o + 1]), cost = tonumber(ARGV[o + 2]),
    mode = ARGV[o + 3], shadow = ARGV[o + 4] == '1', valid = ARGV[o + 5] == '1',
    countInvalid = ARGV[o + 6] == '1', least = tonumber(ARGV[o + 7]),
    most = tonumber(ARGV[o + 8]), past = {}, at = now, atText = nowText}
  for i = 0, changes - 1 do
    g.past[i + 1] = {tonumber(ARGV[o + 10 + 3 * i]), tonumber(ARGV[o + 11 + 3 * i]),
      tonumber(ARGV[o + 12 + 3 * i])}
  end
  -- Dated no earlier than a live change made within this millisecond (writtenAt in the core).
  if changes > 0 then
    local last = g.past[changes][1]
    if last > now and last < now + 1 then g.at, g.atText = last, num(last) end
  end
  groups[o] = g
  return g
end
-- Each bucket of the run is read once, when first taken from, and written once, at the end:
-- its takes see it as they would if each were written at once (the run is atomic). A bucket
-- read holds its fields as text (as read) and as numbers; one written by a take holds the
-- numbers it wrote, whose text (17 digits, read back exactly) is made when needed.
local buckets, order = {}, {}
local function bucket(key)
  local b = buckets[key]
  if b ~= nil then return b end
  -- One read for a bucket that is there (the common case); a key of another type errs.
  local f = redis.pcall('HMGET', key, 't', 'u', 'a', 'r', 's')
  b = {counts = {[3] = false, [4] = false, [5] = false}, changed = {}}
  local tokens, updated
  if not f.err then tokens, updated = number(f[1]), instant(f[2]) end
  if f.err then b.junk = true
  elseif tokens and updated and (not f[3] or whole(f[3]))
    and (not f[4] or whole(f[4])) and (not f[5] or whole(f[5])) then
    b.stored, b.tokens, b.updated, b.tokensText, b.updatedText = true, tokens, updated, f[1], f[2]
    for i = 3, 5 do if f[i] then b.counts[i] = tonumber(f[i]) end end
  else
    -- None of a bucket's fields read back: absent, or a hash that is no bucket.
    b.junk = redis.call('EXISTS', key) == 1
  end
  buckets[key] = b
  order[#order + 1] = key
  return b
end
local function tokensText(b)
  if b.tokensText == nil then b.tokensText = num(b.tokens) end
  return b.tokensText
end
local function take(key, deadline, o)
  -- Past this take's own deadline: 'late', nothing changed (whoever asked has given up).
  if deadline ~= '' and clock > tonumber(deadline) then return 'late', '' end
  local g = group(o)
  local b = bucket(key)
  local burst, rate, cost = g.burst, g.rate, g.cost
  local available = burst
  local before, beforeUpdated = '', ''
  if b.stored then
    before, beforeUpdated = tokensText(b), b.updatedText
    local tokens = b.tokens
    if not (tokens > 0) then tokens = 0 end
    local from = b.updated
    for _, change in ipairs(g.past) do
      local ended = change[1]
      if ended > from then
        local to = ended
        if now < to then to = now end
        local elapsed = 0
        if to > from then elapsed = to - from end
        tokens = tokens + elapsed * change[3]
        if tokens > change[2] then tokens = change[2] end
        from = to
      end
    end
    local elapsed = 0
    if now > from then elapsed = now - from end
    available = tokens + elapsed * rate
    if available > burst then available = burst end
  end
  local allowed = available + 1e-9 >= cost
  local after = available
  if allowed then
    after = available - cost
    if after < 0 then after = 0 end
  end
  local mode = g.mode
  local tokens, count = nil, nil
  if mode == 'peek' then
  elseif mode == 'inject' then tokens, count = available, 4
  elseif (not allowed) and not g.shadow then tokens, count = available, 4
  elseif not g.valid then
    -- Shadow mode (without it, the empty bucket refused above): counted as shadow-rejected.
    if not allowed then tokens, count = available, 5
    elseif g.countInvalid then tokens, count = after, 3 end
  elseif not allowed then tokens, count = available, 5
  else tokens, count = after, 3 end
  if tokens then
    -- Never dated back: a take on a manual time an instance has not yet seen moved (the move
    -- reaches it over pub/sub) would have the next take refill the same time a second time.
    local at, atText = g.at, g.atText
    if b.stored and b.updated > at then at, atText = b.updated, b.updatedText end
    -- A key that is no bucket is deleted before the bucket is written.
    if b.junk then b.delete, b.junk = true, false end
    -- A bucket not read back starts its counters afresh.
    if not b.stored then
      b.counts = {[3] = false, [4] = false, [5] = false}
      b.stored = true
    end
    -- The counter counted, one up from what was read (HINCRBY would be a command more).
    b.counts[count] = (b.counts[count] or 0) + 1
    b.changed[count] = true
    b.tokens, b.updated, b.tokensText, b.updatedText = tokens, at, nil, atText
    local ttl = math.ceil((burst - tokens) / rate)
    if ttl < g.least then ttl = g.least end
    if ttl > g.most then ttl = g.most end
    b.written, b.ttl = true, ttl
  end
  return before, beforeUpdated
end
local reply = {nowText}
for k = 1, #KEYS do
  local tokens, updated = take(KEYS[k], ARGV[1 + 2 * k], tonumber(ARGV[2 + 2 * k]))
  reply[#reply + 1] = tokens
  reply[#reply + 1] = updated
end
for _, key in ipairs(order) do
  local b = buckets[key]
  if b.written then
    if b.delete then redis.call('DEL', key) end
    local fields = {'t', tokensText(b), 'u', b.updatedText}
    for i = 3, 5 do
      if b.changed[i] then
        fields[#fields + 1] = COUNTERS[i]
        fields[#fields + 1] = string.format('%d', b.counts[i])
      end
    end
    redis.call('HSET', key, unpack(fields))
    redis.call('PEXPIRE', key, b.ttl)
  end
end
return reply
`;

/**
 * Issues a code, replacing the one before. KEYS[1] the code. ARGV: [1] manual now or '',
 * [2] deadline or '', [3] merchant id, [4] e-mail, [5] code, [6] time to live in ms, [7] attempts
 * allowed, [8] ms the record is kept past its expiry (so a late try is told "expired"). Returns
 * the time of issue, or 'late'.
 */
export const ISSUE_SCRIPT = `${NOW}
local expires = now + tonumber(ARGV[6])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'm', ARGV[3], 'e', ARGV[4], 'c', ARGV[5], 'i', num(now),
  'x', num(expires), 'a', ARGV[7], 'used', '0')
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[6]) + tonumber(ARGV[8])))
return num(now)
`;

/**
 * Checks a code: used once at most, a wrong try spends an attempt; decided as `decideVerify` in
 * the core does, in the same order, the code compared in constant time. KEYS[1] the code. ARGV:
 * [1] manual now or '', [2] deadline or '', [3] the code tried. Returns the result and the code
 * after the check (merchant, e-mail, code, issued, expires, attempts left, used), just
 * 'not-found' (also for a key that is not such a code), or 'late'.
 */
export const VERIFY_SCRIPT = `${NOW}${FIELDS}${SAME_TEXT}
if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then return {'not-found'} end
local f = redis.call('HMGET', KEYS[1], 'm', 'e', 'c', 'i', 'x', 'a', 'used')
if not (f[1] and f[2] and f[3] and instant(f[4]) and instant(f[5]) and whole(f[6])
  and (f[7] == '0' or f[7] == '1')) then return {'not-found'} end
local result
if f[7] == '1' then result = 'used'
elseif tonumber(f[6]) <= 0 then result = 'exhausted'
elseif now >= number(f[5]) then result = 'expired'
elseif same(f[3], ARGV[3]) then
  result = 'verified'
  redis.call('HSET', KEYS[1], 'used', '1')
  f[7] = '1'
else
  result = 'wrong'
  f[6] = tostring(redis.call('HINCRBY', KEYS[1], 'a', -1))
end
return {result, f[1], f[2], f[3], f[4], f[5], f[6], f[7]}
`;

/**
 * Keeps a live change of the config in KEYS[1] (`uas:meta`): its parts, ARGV[2], and the limits
 * before them, ARGV[3], as the next version of the live state, but only when the version kept
 * there is still ARGV[1], the one the change was made on: two instances changing the config at
 * the same moment are ordered, the second told to make its change again on the first. Returns
 * {'kept', version}, or {'stale', version, live, past} (what is kept, '' for none); a version
 * not one of VERSION's counts as 0. A key gone (flushed) is written anew (fingerprint ARGV[4]).
 */
export const LIVE_SCRIPT = `${VERSION}
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'base', ARGV[4], 'version', ARGV[1])
end
local kept = version(redis.call('HGET', KEYS[1], 'version') or '0') or 0
if digits(kept) ~= ARGV[1] then
  local f = redis.call('HMGET', KEYS[1], 'live', 'past')
  return {'stale', digits(kept), f[1] or '', f[2] or ''}
end
redis.call('HSET', KEYS[1], 'live', ARGV[2], 'past', ARGV[3], 'version', digits(kept + 1))
return {'kept', digits(kept + 1)}
`;

/**
 * Writes KEYS[1] (`uas:meta`) anew: fingerprint ARGV[1], no live change, a version past every one
 * kept there (0 for none), so a change made or sent before the reset is not taken for a later one.
 */
export const RESET_META_SCRIPT = `${VERSION}
local kept = redis.call('TYPE', KEYS[1]).ok == 'hash' and redis.call('HGET', KEYS[1], 'version')
local n = kept and version(kept)
local after = kept and (n and n + 1 or 1) or 0
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'base', ARGV[1], 'version', digits(after), 'reset', digits(after))
return digits(after)
`;

/**
 * Keeps a key, KEYS[1], at least ARGV[1] ms from now: a key that would expire sooner is given
 * that long (one without a time to live, or gone, is left as it is).
 */
export const KEEP_SCRIPT = `
local left = redis.call('PTTL', KEYS[1])
if left >= 0 and left < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 0
`;

/** The time of the Redis server (or the manual time of ARGV[1]), in ms, as text; ARGV[2] ''. */
export const NOW_SCRIPT = `${NOW}
return num(now)
`;

/**
 * Reads the shared manual clock, KEYS[1]; one that is gone (Redis restarted without persistence,
 * or flushed) is set to ARGV[1], this instance's time, and that is the answer.
 */
export const CLOCK_READ_SCRIPT = `
local value = redis.call('GET', KEYS[1])
if value then return value end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`;

/**
 * Adds ARGV[2] ms to the shared manual clock, KEYS[1], and returns its time; one that is gone
 * starts from ARGV[1], this instance's time before the move (INCRBYFLOAT alone would start from 0,
 * 1970).
 */
export const CLOCK_ADD_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('INCRBYFLOAT', KEYS[1], ARGV[2])
`;
