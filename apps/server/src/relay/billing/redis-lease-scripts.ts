/**
 * Balance leases (issue 38 item 1, step 2): the Redis half. A lease is a long-lived reservation a
 * node takes on a user's balance (and a limited key's), so that its requests reserve and settle in
 * its memory and Redis sees one script per lease and flush instead of two per request. It lives in
 * the reservations hash (redis-ledger-scripts.ts) like any reservation, so INIT counts it in the
 * held sums, with a record of its own form:
 *   "userId|tokenId|amount|expiresAtMs|L:<journal id>"
 * where the expiry lies far ahead: REFUND_EXPIRED never gives a lease back (a dead node may have
 * spent any part of it); RELEASE_LEASE does, once that node's journal was replayed, less what the
 * replay found spent.
 *
 * The spend a lease carries to the pending amounts is marked with a journal mark of its own,
 * n:<journal id>.lease (a row of `journal_marks` like any other): the per-request SETTLE script
 * advances n:<journal id> past settlements the node still holds in a lease, so one mark for both
 * would make a replay skip them. With two, a replay writes the lease settlements beyond the lease
 * mark and the per-request ones beyond the other.
 */

/** Far enough ahead that no flush ever finds a lease expired (the year 2255). */
export const LEASE_EXPIRES = 9_000_000_000_000;

/**
 * Settles a lease and takes the next, in one step. KEYS: user, token, res, pending, user held,
 * token held. ARGV:
 *   1 lease id, 2 userId, 3 tokenId (0 = none), 4 unlimited key id (0 = none), 5 journal id,
 *   6 lease mark (the highest journal sequence number the spend carries; 0 = none),
 *   7 spent (charged locally since the last flush), 8 requests settled locally since then,
 *   9 keep (what the node's running requests hold of the lease: held on), 10 want (the free part
 *   the node asks for), 11 minimum (below it no free part is taken: the node reserves per request),
 *   12 divisor (the free part is at most the spendable balance / divisor), 13.. channel id, amount
 *   pairs (the spend by channel).
 * A lease id not in the hash is taken anew: the first lease of a node, or one Redis lost (then its
 * spend is charged as far as the balance goes, and keep held again when the balance can hold it).
 * → {status, charged, lease, balance}: status 1 = the lease now holds `lease` (keep plus a free part,
 * possibly 0: then only keep is held, or nothing and the record is gone); -1 the user's balance, -2
 * the key's, is not loaded (the spend is settled all the same, an existing lease holds keep; load
 * and ask again); -3 a lost lease whose keep the balance cannot hold: nothing is held. `charged` is
 * the spend charged (less than `spent` only for a lost lease); `balance` the user's after settled
 * work, when loaded.
 */
export const RENEW_LEASE = `
local keyHeld = KEYS[6]
local hasToken = ARGV[3] ~= '0'
local values = redis.call('MGET', KEYS[1], KEYS[5], KEYS[2], keyHeld)
local user, userHeld = tonumber(values[1]), tonumber(values[2])
local token, tokenHeld = nil, nil
if hasToken then token, tokenHeld = tonumber(values[3]), tonumber(values[4]) end
local record = redis.call('HGET', KEYS[3], ARGV[1])
local held = 0
if record then held = tonumber(string.match(record, '^%d+|%d+|(%d+)|')) end
local spent = tonumber(ARGV[7])
-- SETTLE's rule: never more than the lease and what is left beside it (the node spends only within
-- its lease, so this takes less only for a lost lease).
local left = user or 0
if hasToken then left = math.min(left, token or 0) end
local charged = math.max(0, math.min(spent, held + math.max(0, left)))
-- Everything held comes back but what was charged; keep is held again below.
if user then user = user + held - charged end
if userHeld then userHeld = userHeld - held end
if token then token = token + held - charged end
if tokenHeld then tokenHeld = tokenHeld - held end
local status = 1
if not user or not userHeld then status = -1 elseif hasToken and (not token or not tokenHeld) then status = -2 end
local lease = tonumber(ARGV[9])
if status == 1 then
  local spendable = user - lease
  if hasToken then spendable = math.min(spendable, token - lease) end
  if not record and lease > 0 and spendable < 0 then
    -- Lost while the node's requests held part of it, and the balance cannot hold that again.
    status, lease = -3, 0
  else
    local free = math.min(tonumber(ARGV[10]), math.floor(spendable / tonumber(ARGV[12])))
    if free >= tonumber(ARGV[11]) and free > 0 then lease = lease + free end
  end
elseif not record then
  lease = 0
end
if user then user = user - lease end
if userHeld then userHeld = userHeld + lease end
if token then token = token - lease end
if tokenHeld then tokenHeld = tokenHeld + lease end
local writes = {}
local function put(key, value) if value then writes[#writes + 1] = key; writes[#writes + 1] = value end end
put(KEYS[1], user)
put(KEYS[5], userHeld)
if hasToken then put(KEYS[2], token); put(keyHeld, tokenHeld) end
if #writes > 0 then redis.call('MSET', unpack(writes)) end
if lease > 0 then
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[2] .. '|' .. ARGV[3] .. '|' .. lease .. '|${LEASE_EXPIRES}|L:' .. ARGV[5])
elseif record then
  redis.call('HDEL', KEYS[3], ARGV[1])
end
local requests = tonumber(ARGV[8])
if charged > 0 or requests > 0 then
  local fields = {'u:' .. ARGV[2] .. ':spent', 'u:' .. ARGV[2] .. ':req'}
  local adds = {charged, requests}
  if hasToken then fields[3] = 't:' .. ARGV[3]; adds[3] = charged
  elseif ARGV[4] ~= '0' then fields[3] = 'k:' .. ARGV[4]; adds[3] = charged end
  for i = 13, #ARGV - 1, 2 do
    if tonumber(ARGV[i + 1]) > 0 then fields[#fields + 1] = 'c:' .. ARGV[i]; adds[#adds + 1] = tonumber(ARGV[i + 1]) end
  end
  local count = #fields
  local mark = nil
  if ARGV[5] ~= '' and tonumber(ARGV[6]) > 0 then mark = 'n:' .. ARGV[5] .. '.lease'; fields[count + 1] = mark end
  local current = redis.call('HMGET', KEYS[4], unpack(fields))
  local pending = {}
  for i = 1, count do
    pending[#pending + 1] = fields[i]
    pending[#pending + 1] = tonumber(current[i] or '0') + adds[i]
  end
  if mark and tonumber(ARGV[6]) > tonumber(current[count + 1] or '0') then
    pending[#pending + 1] = mark
    pending[#pending + 1] = ARGV[6]
  end
  redis.call('HSET', KEYS[4], unpack(pending))
end
if user and userHeld then return {status, charged, lease, user + userHeld} end
return {status, charged, lease}`;

/**
 * Gives back the lease of a node whose journal was replayed, less what the replay wrote to the
 * database for it (the spend beyond its lease mark), once: the record goes in the same step.
 * KEYS: user, token, res, user held, token held. ARGV: lease id, replayed spend. → what came back
 * (-1 when the lease is gone already). Run only after the replay committed: before, the balance
 * would count the spend as free.
 */
export const RELEASE_LEASE = `
local record = redis.call('HGET', KEYS[3], ARGV[1])
if not record or not string.find(record, '|L:', 1, true) then return -1 end
local token, amount = string.match(record, '^%d+|(%d+)|(%d+)|')
amount = tonumber(amount)
local back = math.max(0, amount - tonumber(ARGV[2]))
redis.call('HDEL', KEYS[3], ARGV[1])
local function move(balance, heldKey)
  if redis.call('EXISTS', balance) == 1 then redis.call('INCRBY', balance, back) end
  if redis.call('EXISTS', heldKey) == 1 then redis.call('DECRBY', heldKey, amount) end
end
move(KEYS[1], KEYS[4])
if token ~= '0' then move(KEYS[2], KEYS[5]) end
return back`;
