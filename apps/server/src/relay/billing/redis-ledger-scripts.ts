/**
 * The shared ledger's atomic steps, as Redis Lua scripts. Keys (under a prefix):
 *   u:<id>, t:<id>   spendable balance = stored − settled-not-yet-stored − open reservations
 *   uh:<id>          the user's open reservations, summed (balance after settled work = u + uh)
 *   th:<id>          a limited key's open reservations, summed (likewise t + th)
 *   res              hash reservation id → "userId|tokenId|amount|expiresAtMs", a lease with "|L:<journal id>:<unlimited key id>"
 *                    after it (redis-lease-scripts.ts)
 *   pending          hash of settled amounts not yet in the database (u:<id>:spent, u:<id>:req, t:<id>,
 *                    k:<id> for an unlimited key, c:<id>), and n:<journal id> → the highest
 *                    settlement of that node's crash journal among them
 *   inflight         set of flush ids whose batch is being (or was being) written to the database
 *   gen              incremented after every batch written, so a balance read can tell it raced one
 *   settled          hash reservation id → what its settlement charged, for the settlements the last
 *                    batches took aside (`.since`: when the hash was begun); settled:old the one before
 *   adjusted:<id>    an administrator's top-up applied (it expires)
 *
 * Resent commands. ioredis sends a command again after a reconnect when the connection dropped
 * before its reply came, although Redis may have run it: every script that moves money must give
 * the same effect run twice. RESERVE and SETTLE are idempotent by the reservation id (unique per
 * request): RESERVE holds nothing when its id is held already; SETTLE leaves a marker s:<id> → the
 * amount charged in the pending amounts (no command more than before), which TAKE_PENDING carries
 * to `settled` and keeps there for SETTLED_KEEP_MS to 2 × SETTLED_KEEP_MS (resends come within
 * seconds: the client gives up after 3 reconnects); a SETTLE that finds no reservation looks for the
 * marker and, when there, charges nothing and answers the charge made. ADJUST is idempotent by a
 * top-up id, the lease scripts by their lease mark (redis-lease-scripts.ts).
 */

/** How long a settlement's marker is kept at least after its batch is taken (and at most twice that). */
export const SETTLED_KEEP_MS = 120_000;

/**
 * KEYS: user, token, res, user held, token held. ARGV: amount, id, record, hasToken. → 1 ok; 0 user
 * short, -3 key short; 2 user short and 3 key short but enough once that payer's open reservations
 * settle (some are open); -1/-2 not loaded. Nothing to reserve (a free model) passes whatever the balances.
 * Sent again after its reply was lost, it holds nothing more and answers 1 (its id is held): found
 * by HSET's answer when it would hold (then the balances are put back), and by one HEXISTS only
 * when it would not, so a reservation costs no command more than before.
 */
export const RESERVE = `
local values = redis.call('MGET', KEYS[1], KEYS[4], KEYS[2], KEYS[5])
local user, userHeld, token, tokenHeld = values[1], values[2], nil, nil
local amount = tonumber(ARGV[1])
local function refuse(code)
  if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then return 1 end
  return code
end
if not user or not userHeld then return refuse(-1) end
if ARGV[4] == '1' then
  token, tokenHeld = values[3], values[4]
  if not token or not tokenHeld then return refuse(-2) end
end
if amount > 0 and (tonumber(user) <= 0 or tonumber(user) < amount) then
  local held = tonumber(userHeld)
  if held > 0 and tonumber(user) + held >= amount then return refuse(2) end
  return refuse(0)
end
if amount > 0 and token and (tonumber(token) <= 0 or tonumber(token) < amount) then
  local held = tonumber(tokenHeld)
  if held > 0 and tonumber(token) + held >= amount then return refuse(3) end
  return refuse(-3)
end
-- Read and written in one step each (MGET, MSET): the script runs alone, so this is DECRBY/INCRBY.
local function hold(sign)
  if token then
    redis.call('MSET', KEYS[1], tonumber(user) - sign * amount, KEYS[4], tonumber(userHeld) + sign * amount,
      KEYS[2], tonumber(token) - sign * amount, KEYS[5], tonumber(tokenHeld) + sign * amount)
  else
    redis.call('MSET', KEYS[1], tonumber(user) - sign * amount, KEYS[4], tonumber(userHeld) + sign * amount)
  end
end
hold(1)
-- 0: the id was held already, by this same command run before: the balances as they were.
if redis.call('HSET', KEYS[3], ARGV[2], ARGV[3]) == 0 then hold(0) end
return 1`;

/**
 * KEYS: user, token, res, pending, user held. ARGV: id, amount, cost, hasToken, userId, tokenId, channelId,
 * unlimited key id (0 = none), journal id ('' = none), journal sequence number.
 * Charges at most the reservation plus what is left (never below zero) and records the charge as
 * pending in the same step, so a node that dies afterwards loses nothing. → the amount charged and
 * the user's balance after it (other open reservations not deducted), when that balance is loaded.
 * Run again with the same id (a resend), it finds the marker of its first run and charges nothing:
 * → what the first run charged and the balance now.
 */
export const SETTLE = `
local keyHeld = string.gsub(KEYS[2], 't:(%d+)$', 'th:%1')
local hasToken = ARGV[4] == '1'
-- Balances as numbers, nil where not loaded (then left alone, as INCRBY/DECRBY guarded by EXISTS were).
local values = redis.call('MGET', KEYS[1], KEYS[5], KEYS[2], keyHeld)
local user, userHeld = tonumber(values[1]), tonumber(values[2])
local token, tokenHeld = nil, nil
if hasToken then token, tokenHeld = tonumber(values[3]), tonumber(values[4]) end
local held = 0
if redis.call('HDEL', KEYS[3], ARGV[1]) == 1 then
  held = tonumber(ARGV[2])
  if userHeld then userHeld = userHeld - held end
  if tokenHeld then tokenHeld = tokenHeld - held end
elseif ARGV[1] ~= '' then
  -- No reservation: settled already (this very command, sent again), or it expired (then charged now).
  local settled = string.gsub(KEYS[4], 'pending$', 'settled')
  local done = redis.call('HGET', KEYS[4], 's:' .. ARGV[1]) or redis.call('HGET', settled, ARGV[1])
    or redis.call('HGET', settled .. ':old', ARGV[1])
  if done then
    if user and userHeld then return {tonumber(done), user + userHeld} end
    return {tonumber(done)}
  end
end
local cost = tonumber(ARGV[3])
local left = user or 0
if hasToken then left = math.min(left, token or 0) end
if left < 0 then left = 0 end
local charged = math.min(cost, held + left)
if charged < 0 then charged = 0 end
local back = held - charged
if user then user = user + back end
if token then token = token + back end
local writes = {}
local function put(key, value) if value then writes[#writes + 1] = key; writes[#writes + 1] = value end end
put(KEYS[1], user)
put(KEYS[5], userHeld)
put(KEYS[2], token)
put(keyHeld, tokenHeld)
if #writes > 0 then redis.call('MSET', unpack(writes)) end
-- The pending amounts, read and written in one step each (HMGET, HSET): HINCRBY's sums.
local fields = {'u:' .. ARGV[5] .. ':spent', 'u:' .. ARGV[5] .. ':req'}
local adds = {charged, 1}
if hasToken then fields[3] = 't:' .. ARGV[6]; adds[3] = charged
elseif ARGV[8] ~= '0' then fields[3] = 'k:' .. ARGV[8]; adds[3] = charged end
if tonumber(ARGV[7]) > 0 and charged > 0 then fields[#fields + 1] = 'c:' .. ARGV[7]; adds[#adds + 1] = charged end
local count = #fields
local mark = nil
if ARGV[9] ~= '' then mark = 'n:' .. ARGV[9]; fields[count + 1] = mark end
local current = redis.call('HMGET', KEYS[4], unpack(fields))
local pending = {}
for i = 1, count do
  pending[#pending + 1] = fields[i]
  pending[#pending + 1] = tonumber(current[i] or '0') + adds[i]
end
if mark and tonumber(ARGV[10]) > tonumber(current[count + 1] or '0') then
  pending[#pending + 1] = mark
  pending[#pending + 1] = ARGV[10]
end
if ARGV[1] ~= '' then
  pending[#pending + 1] = 's:' .. ARGV[1]
  pending[#pending + 1] = charged
end
redis.call('HSET', KEYS[4], unpack(pending))
if user and userHeld then return {charged, user + userHeld} end
return {charged}`;

/**
 * KEYS: balance, res, pending, gen, inflight, held (uh:<id> or th:<id>). ARGV: stored value, pending
 * field, 'u'|'t', id, gen seen before reading the stored value. → 1 ready, -1 a batch is being
 * written, -2 a batch was written meanwhile. A balance without its held sum (kept by an older
 * version) is computed anew.
 */
export const INIT = `
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('EXISTS', KEYS[6]) == 1 then return 1 end
if redis.call('SCARD', KEYS[5]) > 0 then return -1 end
if (redis.call('GET', KEYS[4]) or '0') ~= ARGV[5] then return -2 end
local value = tonumber(ARGV[1]) - tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0')
local held = 0
for _, record in ipairs(redis.call('HVALS', KEYS[2])) do
  local user, token, amount = string.match(record, '^(%d+)|(%d+)|(%d+)|')
  if (ARGV[3] == 'u' and user == ARGV[4]) or (ARGV[3] == 't' and token == ARGV[4]) then held = held + tonumber(amount) end
end
redis.call('SET', KEYS[1], value - held)
redis.call('SET', KEYS[6], held)
return 1`;

/**
 * KEYS: res. ARGV: id, key prefix, now (ms). Gives back a reservation nobody settled in time; never
 * a lease (redis-lease-scripts.ts: RELEASE_LEASE gives it back once its node's journal is replayed).
 */
export const REFUND_EXPIRED = `
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record or string.find(record, '|L:', 1, true) then return 0 end
local user, token, amount, expires = string.match(record, '^(%d+)|(%d+)|(%d+)|(%d+)$')
if tonumber(expires) > tonumber(ARGV[3]) then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('EXISTS', ARGV[2] .. 'u:' .. user) == 1 then redis.call('INCRBY', ARGV[2] .. 'u:' .. user, amount) end
if redis.call('EXISTS', ARGV[2] .. 'uh:' .. user) == 1 then redis.call('DECRBY', ARGV[2] .. 'uh:' .. user, amount) end
if token ~= '0' and redis.call('EXISTS', ARGV[2] .. 't:' .. token) == 1 then redis.call('INCRBY', ARGV[2] .. 't:' .. token, amount) end
if token ~= '0' and redis.call('EXISTS', ARGV[2] .. 'th:' .. token) == 1 then redis.call('DECRBY', ARGV[2] .. 'th:' .. token, amount) end
return 1`;

/**
 * KEYS: pending, inflight, settled, settled:old. ARGV: flush id, batch key, now (ms). Moves the
 * pending amounts aside for writing, and their settlement markers (s:<id>) to `settled`, begun anew
 * (the last one kept as settled:old) once it is SETTLED_KEEP_MS old. The batch keeps its markers
 * too: the database writer reads only amounts and marks.
 */
export const TAKE_PENDING = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
local fields = redis.call('HGETALL', ARGV[2])
local markers = {}
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 2) == 's:' then
    markers[#markers + 1] = string.sub(fields[i], 3)
    markers[#markers + 1] = fields[i + 1]
  end
end
if #markers == 0 then return 1 end
local now = tonumber(ARGV[3])
local since = tonumber(redis.call('HGET', KEYS[3], '.since') or '')
if since and now - since >= ${SETTLED_KEEP_MS} then
  redis.call('RENAME', KEYS[3], KEYS[4])
  since = nil
end
if not since then redis.call('HSET', KEYS[3], '.since', now) end
-- In slices: Lua's unpack takes a few thousand values at most.
for start = 1, #markers, 1000 do
  redis.call('HSET', KEYS[3], unpack(markers, start, math.min(start + 999, #markers)))
end
return 1`;

/** KEYS: batch, inflight, gen. ARGV: flush id. After the batch is in the database. */
export const FINISH_BATCH = `
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('INCR', KEYS[3])
return 1`;

/**
 * KEYS: user balance, adjusted:<top-up id>. ARGV: delta. An administrator's top-up, applied to a
 * loaded balance once: the second key says it was (kept for as long as settlement markers).
 */
export const ADJUST = `
if not redis.call('SET', KEYS[2], '1', 'PX', ${2 * SETTLED_KEEP_MS}, 'NX') then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('INCRBY', KEYS[1], ARGV[1]) end
return 1`;
