/** The Lua scripts of `uas:users`, the users added and removed live (see user-changes.ts). */

/**
 * Appends a change of users, ARGV[3], to the list KEYS[1] (`uas:users`), but only when the list
 * is still the one the change was made on: ARGV[1] entries, the last of them ARGV[2] (''
 * for none). Two instances adding or removing users at the same moment are ordered: the second
 * is told what came first, to apply it and make its change again. Past the deadline ARGV[4]
 * (Redis time in ms, '' for none), it answers 'late' and keeps nothing. Returns {'kept', its place
 * (counted from 1)}, or {'stale', n, the entries past the first n}: past those the instance
 * has, or the whole list (n = 0) when its last entry is no longer where it was (Redis lost the
 * list, restarted empty or flushed).
 */
export const USERS_PUSH_SCRIPT = `
local t = redis.call('TIME')
if ARGV[4] ~= '' and tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000 > tonumber(ARGV[4]) then
  return 'late'
end
local seen = tonumber(ARGV[1])
local n = redis.call('LLEN', KEYS[1])
local same = seen == 0 or (n >= seen and redis.call('LINDEX', KEYS[1], seen - 1) == ARGV[2])
if same and n == seen then
  return {'kept', tostring(redis.call('RPUSH', KEYS[1], ARGV[3]))}
end
if not same then seen = 0 end
local reply = {'stale', tostring(seen)}
for _, entry in ipairs(redis.call('LRANGE', KEYS[1], seen, -1)) do reply[#reply + 1] = entry end
return reply
`;

/**
 * Whether the users added live, KEYS[1], are as uas keeps them: none, or a list of JSON arrays
 * (one a batch). Answers 'ok' or 'junk'; read in Redis, so that a large list is not sent.
 */
export const USERS_CHECK_SCRIPT = `
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'none' then return 'ok' end
if kind ~= 'list' then return 'junk' end
for _, batch in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  if string.sub(batch, 1, 1) ~= '[' or string.sub(batch, -1) ~= ']' then return 'junk' end
end
return 'ok'
`;
