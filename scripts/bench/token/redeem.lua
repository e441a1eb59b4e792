-- wrk script: each connection thread redeems its own share of pre-issued codes (codes are single use), one
-- authorization_code + PKCE request each, with HTTP Basic client authentication.
-- Arguments: codes file, thread count, code_verifier, Authorization header value.
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end

function init(args)
  codes, index = {}, 0
  local threads = tonumber(args[2])
  local line_number = 0
  for line in io.lines(args[1]) do
    if line_number % threads == id then codes[#codes + 1] = line end
    line_number = line_number + 1
  end
  verifier, authorization = args[3], args[4]
end

function request()
  index = index + 1
  local code = codes[index] or "exhausted"
  local body = "grant_type=authorization_code&code=" .. code ..
    "&redirect_uri=https%3A%2F%2Flocalhost&code_verifier=" .. verifier
  return wrk.format("POST", "/oauth2/token",
    { ["Content-Type"] = "application/x-www-form-urlencoded", ["Authorization"] = authorization }, body)
end
