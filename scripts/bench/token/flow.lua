-- wrk script: the whole code flow as a signed-in browser and a native app run it, over and over:
-- GET /oauth2/authorize with the browser's session cookie (the user consented before, so the answer is a 302 with a
-- code), then POST /oauth2/token with that code, the PKCE verifier and HTTP Basic client authentication.
-- A flow is counted when its token request is answered 200; anything else counts as an error.
-- Arguments: Cookie header, Authorization header, authorize path (with the code_challenge), code_verifier; and for
-- a run with DPoP (flow.sh DPOP=1), a file of proofs (one a line, each good once) and wrk's thread count: thread i
-- sends lines i, i + count, ... as the DPoP header of its token requests (RFC 9449 §5).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads - 1)
end

function init(args)
  cookie, authorization, authorize_path, verifier = args[1], args[2], args[3], args[4]
  codes = {}
  flows, errors = 0, 0
  proofs = nil
  if args[5] then
    proofs = {}
    local stride, index = tonumber(args[6]), 0
    for line in io.lines(args[5]) do
      if index % stride == id then table.insert(proofs, line) end
      index = index + 1
    end
  end
end

function request()
  local code = table.remove(codes)
  if code then
    local body = "grant_type=authorization_code&code=" .. code ..
      "&redirect_uri=https%3A%2F%2Flocalhost&code_verifier=" .. verifier
    local headers = { ["Content-Type"] = "application/x-www-form-urlencoded", ["Authorization"] = authorization }
    -- Out of proofs, the request goes without one; its answer (a Bearer token) is not counted below.
    if proofs then headers["DPoP"] = table.remove(proofs) end
    return wrk.format("POST", "/oauth2/token", headers, body)
  end
  return wrk.format("GET", authorize_path, { ["Cookie"] = cookie })
end

function response(status, headers, body)
  if status == 302 or status == 303 then
    local location = headers["Location"] or headers["location"] or ""
    local code = location:match("[?&]code=([^&]+)")
    if code then table.insert(codes, code) else errors = errors + 1 end
  elseif status == 200 and (not proofs or body:find('"token_type":"DPoP"', 1, true)) then
    flows = flows + 1
  else
    errors = errors + 1
  end
end

function done(summary, latency, requests)
  local total_flows, total_errors = 0, 0
  for _, thread in ipairs(threads) do
    total_flows = total_flows + thread:get("flows")
    total_errors = total_errors + thread:get("errors")
  end
  io.write(string.format("flows %d\nflow_errors %d\n", total_flows, total_errors))
end
