-- wrk script: the mixed traffic a storage host meets, every response checked against what that request must get.
-- In turn, per thread: an unauthenticated bootstrap probe (401 with the Bearer challenge, as Office's first request
-- gets), a signed-in browser's authorize (302 with a code, redeemed next: POST /oauth2/token with PKCE and HTTP Basic),
-- an authenticated bootstrap (200 with the Bootstrap JSON), a refresh of a refresh token an earlier flow received
-- (each used exactly once: a second use is a replay and would be refused, RFC 9700 §4.14.2), and an introspection
-- (200 with "active":true). Codes are redeemed before anything else, as a client does at once.
-- wrk calls response() without saying which request it answers, so each response is recognised by its shape; a
-- response matching no expected shape is "unexpected". Printed at the end: counts per kind and unexpected ones.
-- Arguments: Cookie header, Authorization (Basic) header, authorize path, code_verifier, access token.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  cookie, basic, authorize_path, verifier, access_token = args[1], args[2], args[3], args[4], args[5]
  codes, refresh_tokens = {}, {}
  turn = 0
  probes, authorizes, tokens, bootstraps, introspections, unexpected = 0, 0, 0, 0, 0, 0
  form = { ["Content-Type"] = "application/x-www-form-urlencoded", ["Authorization"] = basic }
  last_unexpected = ""
end

local function token_request(body)
  return wrk.format("POST", "/oauth2/token", form, body)
end

function request()
  local code = table.remove(codes)
  if code then
    return token_request("grant_type=authorization_code&code=" .. code ..
      "&redirect_uri=https%3A%2F%2Flocalhost&code_verifier=" .. verifier)
  end
  turn = turn % 5 + 1
  if turn == 1 then
    return wrk.format("GET", "/wopibootstrapper")
  elseif turn == 2 then
    return wrk.format("GET", authorize_path, { ["Cookie"] = cookie })
  elseif turn == 3 then
    return wrk.format("GET", "/wopibootstrapper", { ["Authorization"] = "Bearer " .. access_token })
  elseif turn == 4 then
    local refresh_token = table.remove(refresh_tokens, 1)
    if refresh_token then
      return token_request("grant_type=refresh_token&refresh_token=" .. refresh_token)
    end
    return wrk.format("GET", "/wopibootstrapper")
  end
  return wrk.format("POST", "/oauth2/introspect", form, "token=" .. access_token)
end

local function note_unexpected(status, body)
  unexpected = unexpected + 1
  last_unexpected = status .. " " .. string.sub(body or "", 1, 200)
end

function response(status, headers, body)
  if status == 401 then
    local challenge = headers["WWW-Authenticate"] or headers["www-authenticate"] or ""
    if challenge:find("^Bearer ") and challenge:find("authorization_uri=", 1, true) then
      probes = probes + 1
    else
      note_unexpected(status, challenge)
    end
  elseif status == 302 or status == 303 then
    local location = headers["Location"] or headers["location"] or ""
    local code = location:match("[?&]code=([^&]+)")
    if code then
      authorizes = authorizes + 1
      table.insert(codes, code)
    else
      note_unexpected(status, location)
    end
  elseif status == 200 and body:find('"refresh_token"', 1, true) then
    tokens = tokens + 1
    local refresh_token = body:match('"refresh_token"%s*:%s*"([^"]+)"')
    -- Keep a bounded queue: enough to refresh with, never more than a thread could use.
    if refresh_token and #refresh_tokens < 1000 then table.insert(refresh_tokens, refresh_token) end
  elseif status == 200 and body:find('"EcosystemUrl"', 1, true) then
    bootstraps = bootstraps + 1
  elseif status == 200 and body:find('"active"%s*:%s*true') then
    introspections = introspections + 1
  else
    note_unexpected(status, body)
  end
end

function done(summary, latency, requests)
  local totals = { probes = 0, authorizes = 0, tokens = 0, bootstraps = 0, introspections = 0, unexpected = 0 }
  local example = ""
  for _, thread in ipairs(threads) do
    for name in pairs(totals) do totals[name] = totals[name] + thread:get(name) end
    if thread:get("unexpected") > 0 then example = thread:get("last_unexpected") end
  end
  for _, name in ipairs({ "probes", "authorizes", "tokens", "bootstraps", "introspections", "unexpected" }) do
    io.write(string.format("mixed_%s %d\n", name, totals[name]))
  end
  io.write(string.format("mixed_socket_errors %d\n", summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout))
  io.write(string.format("mixed_status_errors %d\n", summary.errors.status))
  io.write(string.format("mixed_socket_error_kinds connect=%d read=%d write=%d timeout=%d\n", summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout))
  if example ~= "" then io.write("mixed_example_unexpected " .. example .. "\n") end
end
