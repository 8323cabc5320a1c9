/**
 * The shared budget windows' atomic steps, as Redis Lua scripts. Keys (under a prefix):
 *   b:<subject>:<period>  hash: s, e (the open window, ms), q, r, t (settled in it), hq, hr, ht (held)
 *   bres                  hash hold id → "expiresAtMs|q|r|t|key,key,…", to give back the holds of a
 *                         node that died
 * Each counter is described to a script by 8 arguments: mode ('r' rolling | 'c' calendar), the
 * rolling length (ms), the calendar window's start and end (ms), whether it is stored ('1': a
 * missing hash must be read from the database first), and the quota, request and token allowances
 * (-1: none). The node computes calendar windows (time zones are its business); Redis keeps each
 * counter's window so every node sees the same one.
 */

/** Brings counter i's window up to now (closing one that ended, opening one); → s, e. */
const ROLL = `
local function roll(key, base, now, open)
  local mode, len, cs, ce = ARGV[base + 1], tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  local s = tonumber(redis.call('HGET', key, 's') or '-1')
  local e = tonumber(redis.call('HGET', key, 'e') or '-1')
  local closed = false
  if mode == 'c' then
    if s ~= cs then s, e, closed = cs, ce, true end
  elseif s < 0 or now >= e then
    if open then s, e, closed = now, now + len, true else s, e, closed = -1, -1, (s >= 0) end
  end
  if closed then
    redis.call('HSET', key, 's', s, 'e', e, 'q', 0, 'r', 0, 't', 0)
  end
  return s, e
end
`;

/**
 * Takes amounts off a counter's settled (prefix '') or held ('h') measures. Subtracted from 0, not
 * negated: Lua writes a negated 0 as "-0", which HINCRBY refuses as no integer.
 */
const TAKE = `
local function take(key, prefix, q, r, t)
  redis.call('HINCRBY', key, prefix .. 'q', 0 - tonumber(q))
  redis.call('HINCRBY', key, prefix .. 'r', 0 - tonumber(r))
  redis.call('HINCRBY', key, prefix .. 't', 0 - tonumber(t))
end
`;

/**
 * KEYS: counters…, bres. ARGV: now, hold id, expiresAt, demand q, r, t, then 8 per counter.
 * → {1} held; {0, i, measure, end} counter i would be overrun; {-1, i} counter i must be loaded.
 */
export const HOLD = `${ROLL}
local now = tonumber(ARGV[1])
local demand = {q = tonumber(ARGV[4]), r = tonumber(ARGV[5]), t = tonumber(ARGV[6])}
local n = #KEYS - 1
for i = 1, n do
  local base = 6 + (i - 1) * 8
  if ARGV[base + 5] == '1' and redis.call('EXISTS', KEYS[i]) == 0 then return {-1, i} end
end
for i = 1, n do
  local base = 6 + (i - 1) * 8
  local s, e = roll(KEYS[i], base, now, true)
  local limits = {q = tonumber(ARGV[base + 6]), r = tonumber(ARGV[base + 7]), t = tonumber(ARGV[base + 8])}
  for _, m in ipairs({'q', 'r', 't'}) do
    local limit = limits[m]
    if limit >= 0 and (m == 'r' or demand[m] > 0) then
      local used = tonumber(redis.call('HGET', KEYS[i], m) or '0') + tonumber(redis.call('HGET', KEYS[i], 'h' .. m) or '0')
      if used + demand[m] > limit then return {0, i, m, e} end
    end
  end
end
local names = {}
for i = 1, n do
  redis.call('HINCRBY', KEYS[i], 'hq', demand.q)
  redis.call('HINCRBY', KEYS[i], 'hr', demand.r)
  redis.call('HINCRBY', KEYS[i], 'ht', demand.t)
  local base = 6 + (i - 1) * 8
  local e = tonumber(redis.call('HGET', KEYS[i], 'e'))
  -- Kept a week past its window, so a late settlement still finds it; then read from the database again.
  redis.call('PEXPIREAT', KEYS[i], e + 604800000)
  names[i] = KEYS[i]
end
redis.call('HSET', KEYS[n + 1], ARGV[2], ARGV[3] .. '|' .. ARGV[4] .. '|' .. ARGV[5] .. '|' .. ARGV[6] .. '|' .. table.concat(names, ','))
return {1}`;

/**
 * KEYS: counters…, bres. ARGV: now, hold id, used q, r, t ('-1' q: give the hold back, count
 * nothing), held q, r, t, then 8 per counter. The hold is taken off only if it is still recorded
 * (not given back as expired); the quota counted is at most what no other hold keeps of any window.
 * → {counted quota, start of counter 1, start of counter 2, …}.
 */
export const SETTLE = `${ROLL}${TAKE}
local now = tonumber(ARGV[1])
local n = #KEYS - 1
local held = {q = tonumber(ARGV[6]), r = tonumber(ARGV[7]), t = tonumber(ARGV[8])}
if redis.call('HDEL', KEYS[n + 1], ARGV[2]) == 1 then
  for i = 1, n do
    if redis.call('EXISTS', KEYS[i]) == 1 then take(KEYS[i], 'h', held.q, held.r, held.t) end
  end
end
local q = tonumber(ARGV[3])
if q < 0 then return {0} end
local starts = {}
for i = 1, n do
  local base = 8 + (i - 1) * 8
  local s = roll(KEYS[i], base, now, true)
  starts[i] = s
  local limit = tonumber(ARGV[base + 6])
  if limit >= 0 then
    local room = limit - tonumber(redis.call('HGET', KEYS[i], 'q') or '0') - tonumber(redis.call('HGET', KEYS[i], 'hq') or '0')
    if room < q then q = room end
  end
end
if q < 0 then q = 0 end
for i = 1, n do
  redis.call('HINCRBY', KEYS[i], 'q', q)
  redis.call('HINCRBY', KEYS[i], 'r', tonumber(ARGV[4]))
  redis.call('HINCRBY', KEYS[i], 't', tonumber(ARGV[5]))
end
local result = {q}
for i = 1, n do result[i + 1] = starts[i] end
return result`;

/**
 * KEYS: counters…. ARGV: 4 per counter: the window's start, and the quota, requests and tokens to
 * take back. Takes back use counted by a settlement from each window still open at that start.
 */
export const UNCOUNT = `${TAKE}
for i = 1, #KEYS do
  local base = (i - 1) * 4
  if tonumber(redis.call('HGET', KEYS[i], 's') or '-1') == tonumber(ARGV[base + 1]) then
    take(KEYS[i], '', ARGV[base + 2], ARGV[base + 3], ARGV[base + 4])
  end
end
return 1`;

/** KEYS: counter. ARGV: s, e, q, r, t (the stored window; s = -1: none). Sets a counter read from the database, unless one is there. */
export const INIT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'e', ARGV[2], 'q', ARGV[3], 'r', ARGV[4], 't', ARGV[5], 'hq', 0, 'hr', 0, 'ht', 0)
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIREAT', KEYS[1], tonumber(ARGV[2]) + 604800000) else redis.call('PEXPIRE', KEYS[1], 604800000) end
return 1`;

/** KEYS: bres. ARGV: hold id, now. Gives back a hold nobody settled in time (its node died). */
export const REFUND_EXPIRED = `${TAKE}
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then return 0 end
local expires, q, r, t, names = string.match(record, '^(%d+)|(%d+)|(%d+)|(%d+)|(.*)$')
if not expires or tonumber(expires) > tonumber(ARGV[2]) then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
for key in string.gmatch(names, '[^,]+') do
  if redis.call('EXISTS', key) == 1 then take(key, 'h', q, r, t) end
end
return 1`;
