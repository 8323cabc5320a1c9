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
 *   bdone, bdone:old      hash hold id → what its settlement answered ("q,start,start,…"), kept
 *                         DONE_KEEP_MS at least (the sweep begins bdone anew at most that often)
 *
 * Resent commands. ioredis sends a command again after a reconnect when the connection dropped
 * before its reply came, although Redis may have run it; each script gives the same effect run
 * twice. HOLD holds nothing when its hold id is recorded already (found by HSET's answer, and by one
 * HEXISTS only when it would refuse); SETTLE that finds no hold to take off looks for its answer in
 * bdone (written by every counting settlement) and, when there, counts nothing and answers it again;
 * a settlement giving a hold back does nothing without the hold; UNCOUNT runs once per id.
 */

/** How long a settlement's answer (and an UNCOUNT's id) is kept at least, for a resent command. */
export const DONE_KEEP_MS = 120_000;

/**
 * Each counter's hash is read once (HMGET, into a table v: s, e, q, r, t, hq, hr, ht) and written
 * once (HSET) per script: the script runs alone, so this is what HINCRBY per field did, in two
 * commands per counter rather than a dozen (issue 38: INFO commandstats counts a script's commands).
 */
export const READ = `
local FIELDS = {'s', 'e', 'q', 'r', 't', 'hq', 'hr', 'ht'}
local function read(key)
  local raw = redis.call('HMGET', key, unpack(FIELDS))
  local v = {exists = false}
  for j = 1, 8 do
    if raw[j] then v.exists = true end
    v[FIELDS[j]] = tonumber(raw[j] or (j <= 2 and '-1' or '0'))
  end
  return v
end
`;

/**
 * Brings counter v's window up to now (closing one that ended, opening one) in the table; → whether
 * it moved (then s, e, q, r, t are to be written, and the key's expiry moved with e).
 */
export const ROLL = `
local function roll(v, base, now, open)
  local mode, len, cs, ce = ARGV[base + 1], tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  local s, e, closed = v.s, v.e, false
  if mode == 'c' then
    if s ~= cs then s, e, closed = cs, ce, true end
  elseif s < 0 or now >= e then
    if open then s, e, closed = now, now + len, true else s, e, closed = -1, -1, (s >= 0) end
  end
  if closed then v.s, v.e, v.q, v.r, v.t = s, e, 0, 0, 0 end
  return closed
end

-- Writes the fields a script changed; a moved window also moves the key's expiry (kept a week past
-- its window, so a late settlement still finds it; then read from the database again).
local function write(key, v, closed, held)
  local fields = {}
  if closed then
    for _, name in ipairs({'s', 'e', 'q', 'r', 't'}) do fields[#fields + 1] = name; fields[#fields + 1] = v[name] end
  elseif v.counted then
    for _, name in ipairs({'q', 'r', 't'}) do fields[#fields + 1] = name; fields[#fields + 1] = v[name] end
  end
  if held then
    for _, name in ipairs({'hq', 'hr', 'ht'}) do fields[#fields + 1] = name; fields[#fields + 1] = v[name] end
  end
  if #fields > 0 then redis.call('HSET', key, unpack(fields)) end
  if closed and v.e > 0 then redis.call('PEXPIREAT', key, v.e + 604800000) end
end
`;

/**
 * KEYS: counters…, bres. ARGV: now, hold id, expiresAt, demand q, r, t, then 8 per counter.
 * → {1} held; {0, i, measure, end} counter i would be overrun; {-1, i} counter i must be loaded.
 */
export const HOLD = `${READ}${ROLL}
local now = tonumber(ARGV[1])
local demand = {q = tonumber(ARGV[4]), r = tonumber(ARGV[5]), t = tonumber(ARGV[6])}
local n = #KEYS - 1
-- Sent again after its reply was lost: held already, so nothing more is.
local function held() return redis.call('HEXISTS', KEYS[n + 1], ARGV[2]) == 1 end
local counters = {}
for i = 1, n do
  local base = 6 + (i - 1) * 8
  counters[i] = read(KEYS[i])
  if ARGV[base + 5] == '1' and not counters[i].exists then
    if held() then return {1} end
    return {-1, i}
  end
end
local moved = {}
for i = 1, n do
  local base = 6 + (i - 1) * 8
  local v = counters[i]
  moved[i] = roll(v, base, now, true)
  local limits = {q = tonumber(ARGV[base + 6]), r = tonumber(ARGV[base + 7]), t = tonumber(ARGV[base + 8])}
  for _, m in ipairs({'q', 'r', 't'}) do
    local limit = limits[m]
    if limit >= 0 and (m == 'r' or demand[m] > 0) then
      if v[m] + v['h' .. m] + demand[m] > limit then
        if held() then return {1} end
        -- Refused: the windows rolled so far stay rolled, as each roll was written at once before.
        for k = 1, i do if moved[k] then write(KEYS[k], counters[k], true, false) end end
        return {0, i, m, v.e}
      end
    end
  end
end
local names = {}
for i = 1, n do names[i] = KEYS[i] end
-- Recorded first: 0 means it was already (this command ran before), and the counters hold it.
local record = ARGV[3] .. '|' .. ARGV[4] .. '|' .. ARGV[5] .. '|' .. ARGV[6] .. '|' .. table.concat(names, ',')
if redis.call('HSET', KEYS[n + 1], ARGV[2], record) == 0 then return {1} end
for i = 1, n do
  local v = counters[i]
  v.hq, v.hr, v.ht = v.hq + demand.q, v.hr + demand.r, v.ht + demand.t
  write(KEYS[i], v, moved[i], true)
end
return {1}`;

/**
 * KEYS: counters…, bres. ARGV: now, hold id, used q, r, t ('-1' q: give the hold back, count
 * nothing), held q, r, t, then 8 per counter. The hold is taken off only if it is still recorded
 * (not given back as expired); the quota counted is at most what no other hold keeps of any window.
 * → {counted quota, start of counter 1, start of counter 2, …}.
 */
export const SETTLE = `${READ}${ROLL}
local now = tonumber(ARGV[1])
local n = #KEYS - 1
local held = {q = tonumber(ARGV[6]), r = tonumber(ARGV[7]), t = tonumber(ARGV[8])}
local released = redis.call('HDEL', KEYS[n + 1], ARGV[2]) == 1
local done = string.gsub(KEYS[n + 1], 'bres$', 'bdone')
local counting = tonumber(ARGV[3]) >= 0 and ARGV[2] ~= ''
if not released and counting then
  -- No hold: settled already (this very command, sent again), or given back as expired (counted now).
  local answer = redis.call('HGET', done, ARGV[2]) or redis.call('HGET', done .. ':old', ARGV[2])
  if answer then
    local result = {}
    for value in string.gmatch(answer, '[^,]+') do result[#result + 1] = tonumber(value) end
    return result
  end
end
local counters = {}
for i = 1, n do
  local v = read(KEYS[i])
  -- A counter that is gone keeps no hold to take off (as EXISTS guarded it).
  v.release = released and v.exists
  if v.release then v.hq, v.hr, v.ht = v.hq - held.q, v.hr - held.r, v.ht - held.t end
  counters[i] = v
end
local q = tonumber(ARGV[3])
if q < 0 then
  for i = 1, n do if counters[i].release then write(KEYS[i], counters[i], false, true) end end
  return {0}
end
local starts, moved = {}, {}
for i = 1, n do
  local base = 8 + (i - 1) * 8
  local v = counters[i]
  moved[i] = roll(v, base, now, true)
  starts[i] = v.s
  local limit = tonumber(ARGV[base + 6])
  if limit >= 0 then
    local room = limit - v.q - v.hq
    if room < q then q = room end
  end
end
if q < 0 then q = 0 end
for i = 1, n do
  local v = counters[i]
  v.q, v.r, v.t, v.counted = v.q + q, v.r + tonumber(ARGV[4]), v.t + tonumber(ARGV[5]), true
  write(KEYS[i], v, moved[i], v.release)
end
local result = {q}
for i = 1, n do result[i + 1] = starts[i] end
if counting then redis.call('HSET', done, ARGV[2], table.concat(result, ',')) end
return result`;

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
 * KEYS: counters…, then buncounted:<id>. ARGV: 4 per counter: the window's start, and the quota,
 * requests and tokens to take back. Takes back use counted by a settlement from each window still
 * open at that start, once per id (the last key says it was done).
 */
export const UNCOUNT = `${TAKE}
if not redis.call('SET', KEYS[#KEYS], '1', 'PX', ${2 * DONE_KEEP_MS}, 'NX') then return 0 end
for i = 1, #KEYS - 1 do
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

/**
 * KEYS: bres. ARGV: hold id, now. Gives back a hold nobody settled in time (its node died). A window
 * lease (id `W-…`, redis-window-lease-scripts.ts) is not given back but counted as used: its dead
 * node may have spent any part of it without flushing, and counting it all never lets the window
 * be passed (the stored use, written from the node's journal, stays exact).
 */
export const REFUND_EXPIRED = `${TAKE}
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then return 0 end
local expires, q, r, t, names = string.match(record, '^(%d+)|(%d+)|(%d+)|(%d+)|(.*)$')
if not expires or tonumber(expires) > tonumber(ARGV[2]) then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
local lease = string.sub(ARGV[1], 1, 2) == 'W-'
for key in string.gmatch(names, '[^,]+') do
  if redis.call('EXISTS', key) == 1 then
    take(key, 'h', q, r, t)
    if lease then take(key, '', 0 - tonumber(q), 0 - tonumber(r), 0 - tonumber(t)) end
  end
end
return 1`;

/** KEYS: bdone, bdone:old. Begins bdone anew, the last one kept as bdone:old (run at most every DONE_KEEP_MS). */
export const ROTATE_DONE = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('RENAME', KEYS[1], KEYS[2]) else redis.call('DEL', KEYS[2]) end
return 1`;
