-- wrk's script for the load testbed (experiments/load-testbed/run.js).
-- Arguments after "--": <method> [<body file> <content type> [<content encoding>]].
-- A POST sends the file's bytes as its body on every request; a GET sends none. When wrk is
-- done, one line "RTL_WRK {json}" gives its summary: requests, bytes read, errors by kind,
-- and latency (microseconds) as wrk's own histogram has it.

init = function(args)
  local method = args[1] or "GET"
  wrk.method = method
  if method == "POST" then
    local file = assert(io.open(args[2], "rb"), "cannot read the body file " .. tostring(args[2]))
    wrk.body = file:read("*a")
    file:close()
    wrk.headers["Content-Type"] = args[3]
    if args[4] and args[4] ~= "" and args[4] ~= "identity" then
      wrk.headers["Content-Encoding"] = args[4]
    end
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  local parts = {
    string.format('"duration_us":%d', summary.duration),
    string.format('"requests":%d', summary.requests),
    string.format('"bytes_read":%d', summary.bytes),
    string.format('"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}',
      e.connect, e.read, e.write, e.status, e.timeout),
    string.format('"latency_us":{"min":%d,"mean":%.1f,"stdev":%.1f,"max":%d,"p50":%d,"p90":%d,"p99":%d}',
      latency.min, latency.mean, latency.stdev, latency.max,
      latency:percentile(50), latency:percentile(90), latency:percentile(99)),
  }
  io.write("RTL_WRK {" .. table.concat(parts, ",") .. "}\n")
end
