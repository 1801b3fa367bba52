-- wrk script for serve_bench: requests the paths listed in the file $BENCH_URLS, one a line.
-- Thread i of $BENCH_THREADS takes lines i, i+T, i+2T, … so no two requests share a path. A thread that runs out
-- starts its share again and counts the wrap: the warm rows cycle on purpose; in the cold rows the
-- driver reports a wrap as a round that was not all cold (a repeated path could be a cache hit).
-- done() prints one line: BENCH {"requests":…,"seconds":…,"p50_ms":…,"p95_ms":…,"errors":…,"wraps":…}

local threads = {}

function setup(thread)
   thread:set("index", #threads)
   table.insert(threads, thread)
end

function init(args)
   local count = tonumber(os.getenv("BENCH_THREADS"))
   local all = {}
   for line in io.lines(os.getenv("BENCH_URLS")) do
      if #line > 0 then all[#all + 1] = line end
   end
   paths = {}
   for i = index + 1, #all, count do
      paths[#paths + 1] = wrk.format("GET", all[i])
   end
   next_path = 1
   wraps = 0
end

function request()
   if next_path > #paths then
      next_path = 1
      wraps = wraps + 1
   end
   local r = paths[next_path]
   next_path = next_path + 1
   return r
end

function done(summary, latency, requests)
   local wrapped = 0
   for _, thread in ipairs(threads) do
      wrapped = wrapped + thread:get("wraps")
   end
   local e = summary.errors
   io.write(string.format(
      'BENCH {"requests":%d,"seconds":%.6f,"p50_ms":%.3f,"p95_ms":%.3f,"errors":%d,"status_errors":%d,"wraps":%d}\n',
      summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(95) / 1000,
      e.connect + e.read + e.write + e.timeout, e.status, wrapped))
end
