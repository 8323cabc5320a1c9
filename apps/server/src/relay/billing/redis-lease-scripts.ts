/**
 * Balance leases (issue 38 item 1, step 2): the Redis half. A lease is a long-lived reservation a
 * node takes on a user's balance (and a limited key's), so that its requests reserve and settle in
 * its memory and Redis sees one script per lease and flush instead of two per request. It lives in
 * the reservations hash (redis-ledger-scripts.ts) like any reservation, so INIT counts it in the
 * held sums, with a record of its own form:
 *   "userId|tokenId|amount|expiresAtMs|L:<journal id>:<unlimited key id, 0 = none>"
 * where the expiry lies far ahead: REFUND_EXPIRED never gives a lease back (a dead node may have
 * spent any part of it); RELEASE_LEASE does, once that node's journal was replayed, less what the
 * replay found spent.
 *
 * The spend leases carry to the pending amounts is marked with a journal mark of its own,
 * n:<journal id>.lease (a row of `journal_marks` like any other): the per-request SETTLE script
 * advances n:<journal id> past settlements the node still holds in a lease, so one mark for both
 * would make a replay skip them. With two, a replay writes the lease settlements beyond the lease
 * mark and the per-request ones beyond the other. A node settles all its leases in one script
 * (RENEW_LEASES), so the lease mark is exact for all of them.
 *
 * Resent commands (a reply lost, the command sent again by the client or by the node after an
 * error): RENEW_LEASES is idempotent by its lease mark, which the pending amounts keep (a spend
 * under a mark they hold is not counted again; the node sends a failed flush again as it was),
 * and RELEASE_LEASE by the lease record it deletes or empties in the same step.
 *
 * A node's journal can be lost with it (its data folder gone): then nothing replays it, and its
 * leases would stay held for good. Every RENEW_LEASES notes when the node last renewed (Redis's
 * clock) in `lease-nodes` (journal id → ms); an administrator's change of a balance gives back the
 * leases on it whose node renewed nothing for STALE_LEASE_MS (a live node renews each of its leases
 * within about a second), all of the lease (what the node spent without flushing is lost with its
 * journal). The record stays, holding 0, so a replay of that journal should it turn up after all
 * still charges what it finds spent (the balance then goes down by it).
 */

/** A lease whose node renewed nothing for this long is a dead node's (see above). */
export const STALE_LEASE_MS = 60_000;

/** Redis's clock in ms, for the lease scripts. */
const NOW = `
local function nowMs()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
`;

/** Far enough ahead that no flush ever finds a lease expired (the year 2255). */
export const LEASE_EXPIRES = 9_000_000_000_000;

/**
 * Settles every lease of a node and takes the next of each, in one step: one mark can then say
 * "every lease settlement of this journal up to here is in Redis" (leases settled one by one would
 * each need a mark of their own: a mark carried by one lease's flush would skip another's older
 * settlements still on the node). KEYS: res, pending, then per lease its user, key, user held and
 * key held balances. ARGV: journal id ('' = none), lease mark (the highest journal sequence number
 * the spend carries; 0 = none), then per lease, in the order of KEYS:
 *   lease id, userId, tokenId (0 = none), unlimited key id (0 = none), spent (charged locally since
 *   the last flush), requests settled locally since then, keep (what the node holds on: the lease
 *   less the spend), must (the part of keep its running requests hold: held on even when the
 *   balance went below the lease, as open reservations are; the rest of keep goes back as far as
 *   the balance is short), want (the free part the node asks for beyond keep), minimum (below it no
 *   free part is taken: the node reserves per request), divisor (the free part is at most the
 *   spendable balance / divisor), the number of channels, then that many channel id, amount pairs
 *   (the spend by channel).
 * A lease id not in the hash is taken anew: the first lease of a node, or one Redis lost (then its
 * spend is charged as far as the balance goes, and keep held again when the balance can hold it).
 * → per lease {status, charged, lease, balance}: status 1 = the lease now holds `lease` (keep plus a
 * free part, possibly 0: then only keep is held, or nothing and the record is gone); -1 the user's
 * balance, -2 the key's, is not loaded (the spend is settled all the same, an existing lease holds
 * keep; load and ask again); -3 a lost lease whose keep the balance cannot hold: nothing is held.
 * `charged` is the spend charged (less than `spent` only for a lost lease, and 0 for a flush Redis had
 * run already, whose mark the pending amounts hold); `balance` the user's after settled work, when loaded.
 * With a journal id it also notes the time of this renewal in `lease-nodes` (see the top).
 */
export const RENEW_LEASES = `${NOW}
if ARGV[1] ~= '' then
  local nodes = string.gsub(KEYS[1], 'res$', 'lease-nodes')
  redis.call('HSET', nodes, ARGV[1], nowMs())
end
-- The same flush twice (Redis ran it and its reply was lost: the client sends it again after a
-- reconnect): its mark is in the pending amounts already, so its spend is not counted again; the
-- leases are renewed from their records all the same, and the answers tell the node where they stand.
local again = false
if ARGV[1] ~= '' and tonumber(ARGV[2]) > 0 then
  local seen = redis.call('HGET', KEYS[2], 'n:' .. ARGV[1] .. '.lease')
  again = seen and tonumber(seen) >= tonumber(ARGV[2])
end
local adds, order = {}, {}
local function add(field, amount)
  if amount == 0 then return end
  if not adds[field] then adds[field] = 0; order[#order + 1] = field end
  adds[field] = adds[field] + amount
end
local answers = {}
local at = 3
for index = 0, (#KEYS - 2) / 4 - 1 do
  local userKey, tokenKey, userHeldKey, tokenHeldKey = KEYS[3 + index * 4], KEYS[4 + index * 4], KEYS[5 + index * 4], KEYS[6 + index * 4]
  local id, userId, tokenId, unlimited = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  local spent, requests, keep = tonumber(ARGV[at + 4]), tonumber(ARGV[at + 5]), tonumber(ARGV[at + 6])
  local must, want, minimum = tonumber(ARGV[at + 7]), tonumber(ARGV[at + 8]), tonumber(ARGV[at + 9])
  local divisor, channels = tonumber(ARGV[at + 10]), tonumber(ARGV[at + 11])
  if again then spent, requests = 0, 0 end
  local hasToken = tokenId ~= '0'
  local values = redis.call('MGET', userKey, userHeldKey, tokenKey, tokenHeldKey)
  local user, userHeld = tonumber(values[1]), tonumber(values[2])
  local token, tokenHeld = nil, nil
  if hasToken then token, tokenHeld = tonumber(values[3]), tonumber(values[4]) end
  local record = redis.call('HGET', KEYS[1], id)
  local held = 0
  if record then held = tonumber(string.match(record, '^%d+|%d+|(%d+)|')) end
  -- SETTLE's rule: never more than the lease and what is left beside it (the node spends only
  -- within its lease, so this takes less only for a lost lease).
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
  local lease = keep
  if status == 1 then
    local spendable = user - lease
    if hasToken then spendable = math.min(spendable, token - lease) end
    if spendable < 0 then
      if not record and spendable + lease < must then
        -- Lost while the node's requests held part of it, and the balance cannot hold that again.
        status, lease = -3, 0
      else
        -- The balance went below the lease (an administrator lowered it): the free part goes back.
        lease = math.max(must, lease + spendable)
      end
    else
      local free = math.min(want, math.floor(spendable / divisor))
      if free >= minimum and free > 0 then lease = lease + free end
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
  put(userKey, user)
  put(userHeldKey, userHeld)
  if hasToken then put(tokenKey, token); put(tokenHeldKey, tokenHeld) end
  if #writes > 0 then redis.call('MSET', unpack(writes)) end
  if lease > 0 then
    redis.call('HSET', KEYS[1], id, userId .. '|' .. tokenId .. '|' .. lease .. '|${LEASE_EXPIRES}|L:' .. ARGV[1] .. ':' .. unlimited)
  elseif record then
    redis.call('HDEL', KEYS[1], id)
  end
  add('u:' .. userId .. ':spent', charged)
  add('u:' .. userId .. ':req', requests)
  if hasToken then add('t:' .. tokenId, charged) elseif unlimited ~= '0' then add('k:' .. unlimited, charged) end
  for channel = 0, channels - 1 do
    if not again then add('c:' .. ARGV[at + 12 + channel * 2], tonumber(ARGV[at + 13 + channel * 2])) end
  end
  at = at + 12 + channels * 2
  if user and userHeld then answers[#answers + 1] = {status, charged, lease, user + userHeld}
  else answers[#answers + 1] = {status, charged, lease} end
end
if #order > 0 then
  local mark = nil
  if ARGV[1] ~= '' and tonumber(ARGV[2]) > 0 then mark = 'n:' .. ARGV[1] .. '.lease'; order[#order + 1] = mark end
  local current = redis.call('HMGET', KEYS[2], unpack(order))
  local pending = {}
  for i, field in ipairs(order) do
    if field == mark then
      if tonumber(ARGV[2]) > tonumber(current[i] or '0') then pending[#pending + 1] = field; pending[#pending + 1] = ARGV[2] end
    else
      pending[#pending + 1] = field
      pending[#pending + 1] = tonumber(current[i] or '0') + adds[field]
    end
  end
  if #pending > 0 then redis.call('HSET', KEYS[2], unpack(pending)) end
end
return answers`;

/**
 * Gives back the lease of a node whose journal was replayed, less what the replay wrote to the
 * database for it (the spend beyond its lease mark), once: the record goes in the same step.
 * KEYS: user, token, res, user held, token held, lease-nodes. ARGV: lease id, replayed spend, and
 * '' after a replay, or (an administrator's change) STALE_LEASE_MS: then only a lease whose node
 * renewed nothing for that long comes back, all of it, and its record stays holding 0.
 * → what came back to the balance (negative: a replay charged a lease given back before), or nil
 * when nothing was (the lease is gone, or its node is alive). After a replay, run only once it
 * committed: before, the balance would count the spend as free.
 */
export const RELEASE_LEASE = `${NOW}
local record = redis.call('HGET', KEYS[3], ARGV[1])
if not record then return false end
local user, token, amount, expires, journal, unlimited = string.match(record, '^(%d+)|(%d+)|(%d+)|(%d+)|L:(.*):(%d+)$')
if not user then return false end
amount = tonumber(amount)
if ARGV[3] and ARGV[3] ~= '' then
  if amount == 0 then return false end
  local seen = tonumber(redis.call('HGET', KEYS[6], journal) or '0')
  if nowMs() - seen < tonumber(ARGV[3]) then return false end
  redis.call('HSET', KEYS[3], ARGV[1], user .. '|' .. token .. '|0|' .. expires .. '|L:' .. journal .. ':' .. unlimited)
else
  redis.call('HDEL', KEYS[3], ARGV[1])
end
local back = amount - tonumber(ARGV[2])
local function move(balance, heldKey)
  if redis.call('EXISTS', balance) == 1 then redis.call('INCRBY', balance, back) end
  if redis.call('EXISTS', heldKey) == 1 then redis.call('DECRBY', heldKey, amount) end
end
move(KEYS[1], KEYS[4])
if token ~= '0' then move(KEYS[2], KEYS[5]) end
return back`;
