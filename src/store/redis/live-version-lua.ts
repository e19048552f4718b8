import { MOST_LIVE_VERSION } from './live-change.js';

/**
 * A version of the live state as `uas:meta` keeps it, read (`version`): a whole number from 0 to
 * one below 2^53 - 1, so that the next one is still exact for the instances (what is not, written
 * by something other than uas, is nil); and written (`digits`) in full, where Lua's tostring
 * writes 1e+14 from 10^14 on, which no instance would take for its version.
 */
export const VERSION = `
local function version(text)
  local n = tonumber(text)
  if n == nil or n < 0 or n % 1 ~= 0 or n > ${MOST_LIVE_VERSION} then return nil end
  return n
end
local function digits(n) return string.format('%d', n) end
`;
