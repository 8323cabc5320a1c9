import { READ, ROLL } from './redis-budget-scripts.js';

/**
 * Budget window leases (issue 38): the Redis half. A node takes a slice of a window's allowance (a
 * lease), held in the counter's held fields (hq, hr, ht) like any hold, so its requests hold and
 * settle in its memory and Redis sees one script per flush for all the node's windows instead of
 * two per request. Each lease is a record in bres like a hold, `W-<node>-<counter>` →
 * "expiresAtMs|q|r|t|counter key", renewed with every flush; should its node die, REFUND_EXPIRED
 * counts the whole lease as used once it expires (redis-budget-scripts.ts), so a window is never
 * passed by what a dead node spent without flushing.
 *
 * Resent: a flush whose reply was lost is sent again exactly (the same round number); the node's
 * mark (bflush:<node>, the last round Redis ran) tells the script it ran already, and then it counts
 * nothing and changes no lease, but answers where each lease stands.
 *
 * A counter is described by the same 8 arguments as HOLD's (redis-budget-scripts.ts), followed by 18
 * of its lease:
 *   lease id, the start of the window the spend was counted in (-1: none), the spend (q, r, t),
 *   keep (q, r, t: what the node holds on: its running requests' holds and, unless it gives the
 *   lease back, the free part it has), must (q, r, t: the running requests' part of keep, held even
 *   when the window has no room for the rest), want (q, r, t: the free part asked for beyond keep,
 *   0 for a measure the counter does not limit), minimum (q, r, t: below it no free part is
 *   taken), and the divisor (the free part of a measure is at most the window's room / divisor).
 */
const LEASE_ARGS = 18;
const COUNTER_ARGS = 8 + LEASE_ARGS;

/** The node's round mark outlives any reconnect by far; a node that is gone leaves it to expire. */
const MARK_KEEP_MS = 86_400_000;

/**
 * KEYS: bres, the node's mark, counters…. ARGV: now, expiresAt, round number, then 26 per counter. Per counter: its lease is taken
 * off the held fields, the window rolled, the spend counted when it was counted in the window that
 * is open (a closed window's spend no longer limits anything), and keep plus a free part held again.
 * A free part is granted for every limited measure the node wants, or for none: a lease that admits
 * on one measure but not another serves no request.
 * → per counter {1, window start, window end, lease q, r, t}, or {-1} when a stored counter is not in
 * Redis (lost, or expired): the node's lease went with it (its record is removed), and the node loads
 * the counter and asks again.
 */
export const RENEW_WINDOWS = `${READ}${ROLL}
local now, expires = tonumber(ARGV[1]), ARGV[2]
local MEASURES = {'q', 'r', 't'}
local again = tonumber(ARGV[3]) <= tonumber(redis.call('GET', KEYS[2]) or '0')
if not again then redis.call('SET', KEYS[2], ARGV[3], 'PX', ${MARK_KEEP_MS}) end
local answers = {}
for i = 3, #KEYS do
  local key = KEYS[i]
  local base = 3 + (i - 3) * ${COUNTER_ARGS}
  local at = base + 8
  local id = ARGV[at + 1]
  local v = read(key)
  if again then
    -- Ran already: where the lease stands, from its record.
    local record = redis.call('HGET', KEYS[1], id)
    local q, r, t = 0, 0, 0
    if record then q, r, t = string.match(record, '^%d+|(%d+)|(%d+)|(%d+)|') end
    answers[#answers + 1] = {1, v.s, v.e, tonumber(q), tonumber(r), tonumber(t)}
  elseif ARGV[base + 5] == '1' and not v.exists then
    redis.call('HDEL', KEYS[1], id)
    answers[#answers + 1] = {-1}
  else
    local record = redis.call('HGET', KEYS[1], id)
    if record and v.exists then
      local q, r, t = string.match(record, '^%d+|(%d+)|(%d+)|(%d+)|')
      v.hq, v.hr, v.ht = v.hq - tonumber(q), v.hr - tonumber(r), v.ht - tonumber(t)
    end
    local moved = roll(v, base, now, true)
    if tonumber(ARGV[at + 2]) == v.s then
      v.q, v.r, v.t = v.q + tonumber(ARGV[at + 3]), v.r + tonumber(ARGV[at + 4]), v.t + tonumber(ARGV[at + 5])
      v.counted = true
    end
    local lease, grant, granting = {}, {}, true
    for j, m in ipairs(MEASURES) do
      local keep, must = tonumber(ARGV[at + 5 + j]), tonumber(ARGV[at + 8 + j])
      local want, minimum = tonumber(ARGV[at + 11 + j]), tonumber(ARGV[at + 14 + j])
      local limit = tonumber(ARGV[base + 5 + j])
      lease[m], grant[m] = keep, 0
      if limit >= 0 then
        local room = limit - v[m] - v['h' .. m] - keep
        if room < 0 then
          -- The window has less room than the lease (its allowance was lowered): the free part goes back.
          lease[m] = math.max(must, keep + room)
          granting = false
        elseif want > 0 then
          local free = math.min(want, math.floor(room / tonumber(ARGV[at + 18])))
          if free >= minimum and free > 0 then grant[m] = free else granting = false end
        end
      end
    end
    for _, m in ipairs(MEASURES) do
      if granting then lease[m] = lease[m] + grant[m] end
      v['h' .. m] = v['h' .. m] + lease[m]
    end
    write(key, v, moved, true)
    if lease.q + lease.r + lease.t > 0 then
      redis.call('HSET', KEYS[1], id, expires .. '|' .. lease.q .. '|' .. lease.r .. '|' .. lease.t .. '|' .. key)
    elseif record then
      redis.call('HDEL', KEYS[1], id)
    end
    answers[#answers + 1] = {1, v.s, v.e, lease.q, lease.r, lease.t}
  end
end
return answers`;
