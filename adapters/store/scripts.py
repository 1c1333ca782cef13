"""Lua scripts behind every multi-key write, so that each write is one atomic step.

Rule followed by every script: all reads, checks and JSON decoding happen before the
first write. Redis does not roll back a script that fails halfway, so an error after
a write would leave half a commit behind.
"""

from __future__ import annotations

# KEYS: table, archived table, chat index, owed
# ARGV: id, record json, status, chat, users json, score, prefix, create id, owed due
# Every write also records that the table owes its follow-ups (messages, jobs,
# archiving, the autopilot) for this version: the ``owed`` field and a place in the
# ``owed`` set, due once the writer had time to deliver them. The writer clears both
# when it has (SETTLED); otherwise any worker claims the table and re-derives them.
CREATE = """
local existing = redis.call('HGET', KEYS[1], 'commit_id')
if existing then
  if existing == ARGV[8] then return 'duplicate' end
  return 'exists'
end
if redis.call('EXISTS', KEYS[2]) == 1 then return 'exists' end
local users = cjson.decode(ARGV[5])
redis.call('HSET', KEYS[1], 'version', '0', 'status', ARGV[3], 'chat', ARGV[4],
  'users', ARGV[5], 'score', ARGV[6], 'record', ARGV[2], 'commit_id', ARGV[8], 'owed', '0')
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[9], ARGV[1])
for _, user in ipairs(users) do
  redis.call('ZADD', ARGV[7] .. 'user:' .. user .. ':tables', ARGV[6], ARGV[1])
end
return 'ok'
"""

# A platform update's claim (``adapters.delivery.updates``), as a function that other
# scripts run too: a move's commit claims the press that made it, in the same step
# (COMMIT with a guard), and so may the step that queues an update's answer
# (``Outbox.finish_update``). 'mine' when the update was free (it is claimed for
# ``token`` then, for ``claim_ms``) or is this token's already; 'done' when it was
# handled; 'held' when another worker's claim holds it (with the ms it still runs).
# Reads first, then at most the one write.
CLAIM_UPDATE = """
local function claim_update(done_key, claim_key, legacy_key, token, claim_ms)
  if redis.call('EXISTS', done_key) == 1 or redis.call('EXISTS', legacy_key) == 1 then
    return {'done', 0}
  end
  local holder = redis.call('GET', claim_key)
  if holder == token then return {'mine', 0} end
  if holder then return {'held', redis.call('PTTL', claim_key)} end
  redis.call('SET', claim_key, token, 'PX', claim_ms)
  return {'mine', 0}
end
"""

# KEYS: table, log, owed, then with a guard: the update's done flag, claim and legacy
#       done flag (CLAIM_UPDATE)
# ARGV: expected version, record json, status, chat, users json, entry json,
#       commit id, prefix, table id, owed due, then with a guard: token, claim ms
# With a guard the commit also claims the platform update that asked for it, once every
# check has passed: a move is saved only by the worker that holds its update.
COMMIT = CLAIM_UPDATE + """
local cur = redis.call('HMGET', KEYS[1], 'version', 'commit_id', 'chat', 'users', 'score')
if not cur[1] then return {'missing'} end
local version = tonumber(cur[1])
local expected = tonumber(ARGV[1])
if version ~= expected then
  if version == expected + 1 and cur[2] == ARGV[7] then
    -- A retry of a commit that went through but whose reply was lost.
    return {'duplicate', redis.call('HGET', KEYS[1], 'record')}
  end
  return {'stale', tostring(version)}
end
local old_users = cjson.decode(cur[4])
local new_users = cjson.decode(ARGV[5])
local keep = {}
for _, user in ipairs(new_users) do keep[user] = true end
if #KEYS > 3 then
  local claim = claim_update(KEYS[4], KEYS[5], KEYS[6], ARGV[11], ARGV[12])
  if claim[1] ~= 'mine' then return {'taken', claim[1], tostring(claim[2])} end
end

redis.call('HSET', KEYS[1], 'version', tostring(version + 1), 'status', ARGV[3],
  'chat', ARGV[4], 'users', ARGV[5], 'record', ARGV[2], 'commit_id', ARGV[7],
  'owed', tostring(version + 1))
redis.call('RPUSH', KEYS[2], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[10], ARGV[9])
if cur[3] ~= ARGV[4] then
  redis.call('ZREM', ARGV[8] .. 'chat:' .. cur[3] .. ':tables', ARGV[9])
  redis.call('ZADD', ARGV[8] .. 'chat:' .. ARGV[4] .. ':tables', cur[5], ARGV[9])
end
for _, user in ipairs(old_users) do
  if not keep[user] then
    redis.call('ZREM', ARGV[8] .. 'user:' .. user .. ':tables', ARGV[9])
  end
end
for _, user in ipairs(new_users) do
  redis.call('ZADD', ARGV[8] .. 'user:' .. user .. ':tables', cur[5], ARGV[9])
end
-- Told from inside the commit, so whichever worker commits, every page open at the
-- table hears of it (Keys.live); a message nobody listens to costs nothing.
redis.call('PUBLISH', ARGV[8] .. 'live:' .. ARGV[9], tostring(version + 1))
return {'ok'}
"""

# KEYS: table, log, archived table, archived log
# ARGV: ttl seconds, prefix, table id, archived-at iso timestamp, kept result json (or
#       empty), then the ids of the people who played (its user indexes)
ARCHIVE = """
local cur = redis.call('HMGET', KEYS[1], 'status', 'chat', 'users')
if not cur[1] then
  if redis.call('EXISTS', KEYS[3]) == 1 then return {'already'} end
  return {'missing'}
end
if cur[1] ~= 'finished' and cur[1] ~= 'aborted' then return {'active', cur[1]} end
local users = cjson.decode(cur[3])

redis.call('ZREM', ARGV[2] .. 'chat:' .. cur[2] .. ':tables', ARGV[3])
for _, user in ipairs(users) do
  redis.call('ZREM', ARGV[2] .. 'user:' .. user .. ':tables', ARGV[3])
end
redis.call('HSET', KEYS[1], 'archived_at', ARGV[4])
-- The result kept for good (ARGV[5], empty for none), numbered in the order kept, and
-- indexed for each person who played (ARGV[6...]).
if ARGV[5] ~= '' then
  local n = redis.call('INCR', ARGV[2] .. 'seq:result')
  redis.call('SET', ARGV[2] .. 'result:' .. ARGV[3], ARGV[5])
  redis.call('ZADD', ARGV[2] .. 'results', n, ARGV[3])
  for i = 6, #ARGV do
    redis.call('ZADD', ARGV[2] .. 'user:' .. ARGV[i] .. ':results', n, ARGV[3])
  end
end
redis.call('RENAME', KEYS[1], KEYS[3])
redis.call('EXPIRE', KEYS[3], ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('RENAME', KEYS[2], KEYS[4])
  redis.call('EXPIRE', KEYS[4], ARGV[1])
end
return {'ok'}
"""

# KEYS: queue
# ARGV: now, lease-until, worker id, limit, prefix
# A claimed job stays in the queue scored by its lease expiry: if the worker dies
# before ``ack``, the job becomes due again by itself, with no sweeper needed.
CLAIM_DUE = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[4]))
local claimed = {}
for _, id in ipairs(ids) do
  local key = ARGV[5] .. 'job:' .. id
  if redis.call('EXISTS', key) == 0 then
    redis.call('ZREM', KEYS[1], id)
  else
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    redis.call('HSET', key, 'owner', ARGV[3])
    redis.call('HINCRBY', key, 'attempts', 1)
    local job = redis.call('HMGET', key, 'payload', 'due', 'attempts')
    table.insert(claimed, {id, job[1], job[2], job[3]})
  end
end
return claimed
"""

# KEYS: queue, job
# ARGV: job id, worker id
ACK = """
if redis.call('HGET', KEYS[2], 'owner') ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1
"""

# Cancels and (re)schedules several jobs: what a committed move changes in its seats'
# reminders and clocks (same keys and fields as ``DueJobs.schedule``). A Lua function,
# for every script that makes such changes; its keys start after KEYS[k0], its
# arguments after ARGV[a0] and run to the end of ARGV.
# KEYS: queue, then the job hash of every cancelled job, then of every scheduled one
# ARGV: number of cancelled jobs, their ids, then per scheduled job: id, score,
#       payload json, due iso timestamp
JOB_CHANGES = """
local function change_jobs(k0, a0)
  local cancelled = tonumber(ARGV[a0 + 1])
  for i = 1, cancelled do
    redis.call('ZREM', KEYS[k0 + 1], ARGV[a0 + 1 + i])
    redis.call('DEL', KEYS[k0 + 1 + i])
  end
  local k = k0 + 1 + cancelled
  local a = a0 + 1 + cancelled
  while a < #ARGV do
    k = k + 1
    redis.call('ZADD', KEYS[k0 + 1], ARGV[a + 2], ARGV[a + 1])
    redis.call('DEL', KEYS[k])
    redis.call('HSET', KEYS[k], 'payload', ARGV[a + 3], 'due', ARGV[a + 4])
    a = a + 4
  end
end
"""

# KEYS and ARGV: JOB_CHANGES's, from the first.
CHANGE_JOBS = JOB_CHANGES + """
change_jobs(0, 0)
return 'ok'
"""

# Clears what a table owes, but only for the version delivered: a newer commit's
# follow-ups stay owed. An archived table keeps its marker (its final messages may not
# be out yet), so both places are looked at. The version's job changes are made
# either way: a newer version only changes the jobs of the seats it changed. A Lua
# function, so that the outbox can settle a table in the step that queues its
# messages (``Outbox.finish_update``); its keys start after KEYS[k0], its arguments
# after ARGV[a0] and run to the end of ARGV. Returns 1 if nothing is owed any more.
# KEYS: table, archived table, owed, then JOB_CHANGES's
# ARGV: version, table id, then JOB_CHANGES's
SETTLE_TABLE = JOB_CHANGES + """
local function settle_table(k0, a0)
  local key = KEYS[k0 + 1]
  local owed = redis.call('HGET', key, 'owed')
  if not owed then
    key = KEYS[k0 + 2]
    owed = redis.call('HGET', key, 'owed')
  end
  change_jobs(k0 + 3, a0 + 2)
  if owed and owed ~= ARGV[a0 + 1] then return 0 end
  if owed then redis.call('HDEL', key, 'owed') end
  redis.call('ZREM', KEYS[k0 + 3], ARGV[a0 + 2])
  return 1
end
"""

# KEYS and ARGV: SETTLE_TABLE's, from the first.
SETTLED = SETTLE_TABLE + """
return settle_table(0, 0)
"""

# KEYS: owed
# ARGV: now, lease-until, limit, prefix
# Claims tables whose follow-ups are overdue, leasing each (as CLAIM_DUE does) so that
# one worker repairs it; a worker that dies lets the lease run out.
CLAIM_OWED = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local claimed = {}
for _, id in ipairs(ids) do
  local archived = 0
  local owed = redis.call('HGET', ARGV[4] .. 'table:' .. id, 'owed')
  if not owed then
    archived = 1
    owed = redis.call('HGET', ARGV[4] .. 'archive:' .. id, 'owed')
  end
  if not owed then
    redis.call('ZREM', KEYS[1], id)
  else
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    table.insert(claimed, {id, owed, archived})
  end
end
return claimed
"""

# KEYS: ratings cursor, rating keys set
# ARGV: expected cursor (or '*': any), new cursor, replace ('1': delete every rating key
#       first), count of ratings n, then n triples (hash key, player, rating JSON), then
#       pairs (history list key, step JSON)
# Ratings move forward with their cursor in one step: two workers rating the same new
# results cannot both write, and a reader never sees ratings without their cursor.
ADD_RATINGS = """
local cur = redis.call('GET', KEYS[1]) or '0'
if ARGV[1] ~= '*' and cur ~= ARGV[1] then return 0 end
if ARGV[3] == '1' then
  local old = redis.call('SMEMBERS', KEYS[2])
  for _, key in ipairs(old) do redis.call('DEL', key) end
  redis.call('DEL', KEYS[2])
end
local n = tonumber(ARGV[4])
local i = 5
for _ = 1, n do
  redis.call('HSET', ARGV[i], ARGV[i + 1], ARGV[i + 2])
  redis.call('SADD', KEYS[2], ARGV[i])
  i = i + 3
end
while i <= #ARGV do
  redis.call('RPUSH', ARGV[i], ARGV[i + 1])
  redis.call('SADD', KEYS[2], ARGV[i])
  i = i + 2
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""
