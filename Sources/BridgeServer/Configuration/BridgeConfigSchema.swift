// The JSON Schema of the configuration, kept byte-identical to schemas/bridge-config.schema.json (a test checks).
// Embedded so that the installed binary validates without finding the repository; edit both together.
enum BridgeConfigSchema {
    static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://signinbridge.dev/schemas/bridge-config.schema.json",
  "title": "SignInBridge server configuration",
  "description": "The YAML file given to `signin-bridge serve --config` (samples/bridge.yaml). Keys with a default may be left out.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "issuer": {
      "description": "public origin of this server, https (http only for loopback hosts); default: http://<listen.host>:<listen.port> when that is loopback. Every advertised URL is derived from it unless set.",
      "type": "string", "minLength": 1, "maxLength": 2048, "pattern": "^https?://[^\\s\"',]+$"
    },
    "listen": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "host": { "type": "string", "minLength": 1, "maxLength": 255, "default": "127.0.0.1" },
        "port": { "type": "integer", "minimum": 0, "maximum": 65535, "default": 8080 },
        "trustedProxies": {
          "type": "array", "maxItems": 64, "default": [],
          "items": { "type": "string", "minLength": 1, "maxLength": 64 },
          "description": "IP addresses or CIDR blocks of reverse proxies whose X-Forwarded-For names the client, for the sign-in throttle."
        }
      }
    },
    "store": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "sqlite": {
          "type": "object", "additionalProperties": false,
          "properties": {
            "path": { "type": "string", "minLength": 1, "default": "data/bridge.sqlite" },
            "durability": { "enum": ["normal", "full"], "default": "normal" }
          }
        },
        "postgres": {
          "type": "object", "additionalProperties": false, "required": ["url"],
          "description": "Use PostgreSQL instead of SQLite (several instances on one database). Without it the store is SQLite.",
          "properties": {
            "url": {
              "type": "string", "minLength": 1, "maxLength": 4096, "pattern": "^postgres(ql)?://",
              "description": "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]; SIGNIN_BRIDGE_STORE_URL overrides it"
            },
            "maxConnections": {
              "type": "integer", "minimum": 1, "maximum": 1000, "default": 10,
              "description": "Upper bound of this instance's connection pool (one more connection listens for other instances' changes)."
            },
            "connectTimeoutMilliseconds": {
              "type": "integer", "minimum": 100, "maximum": 600000, "default": 5000,
              "description": "How long connecting, or waiting for a free connection, may take before a request is answered as unavailable."
            }
          }
        },
        "purgeIntervalSeconds": {
          "type": "integer", "minimum": 0, "maximum": 86400, "default": 600,
          "description": "How often expired tokens, codes and sessions are deleted; 0 never."
        }
      }
    },
    "signingKeys": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "file": { "type": "string", "minLength": 1, "default": "data/signing-keys.json" },
        "publishBeforeSigningSeconds": {
          "type": "integer", "minimum": 0, "maximum": 2592000, "default": 86400,
          "description": "How long `keys rotate` publishes a next key in the JWKS before it may sign: at least as long as relying parties cache the JWKS (this server says max-age=300)."
        }
      }
    },
    "log": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "level": { "enum": ["trace", "debug", "info", "notice", "warning", "error", "critical"], "default": "info" },
        "format": { "enum": ["logfmt", "json"], "default": "logfmt" },
        "requests": { "type": "boolean", "default": true }
      }
    },
    "limits": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "maxBodyBytes": { "type": "integer", "minimum": 1024, "maximum": 16777216, "default": 65536 },
        "maxHeaderValueBytes": { "type": "integer", "minimum": 256, "maximum": 65536, "default": 8192 },
        "idleTimeoutSeconds": { "type": "integer", "minimum": 1, "maximum": 3600, "default": 60 }
      }
    },
    "tokens": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "accessTokenLifetimeSeconds": { "type": "integer", "minimum": 60, "maximum": 86400, "default": 3600 },
        "refreshTokenLifetimeSeconds": {
          "type": "integer", "minimum": 0, "maximum": 34560000, "default": 7776000,
          "description": "Lifetime of each refresh token from its issue; rotation issues a new one, so a client in use stays signed in. 0: until rotated or revoked."
        },
        "refreshReuseGraceSeconds": {
          "type": "integer", "minimum": 0, "maximum": 60, "default": 0,
          "description": "A rotated refresh token presented again within this time is rotated again instead of revoking the grant, for clients that refresh from several threads at once. 0: every reuse is a replay (RFC 9700 4.14.2)."
        },
        "statusCacheMilliseconds": {
          "type": "integer", "minimum": 0, "maximum": 60000, "default": 1000,
          "description": "How long introspection may reuse an access token's status read from the store. Changes made through this server take effect at once; changes by another process on the same database (or another instance) within this time. 0 reads the store on every request. The bootstrapper and the token endpoint always read the store, in the same call that records their answer."
        }
      }
    },
    "authorize": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "codeLifetimeSeconds": { "type": "integer", "minimum": 10, "maximum": 600, "default": 60 },
        "requestLifetimeSeconds": { "type": "integer", "minimum": 60, "maximum": 86400, "default": 900 },
        "allowPlainPKCE": { "type": "boolean", "default": false }
      }
    },
    "exchange": {
      "type": "object", "additionalProperties": false,
      "description": "one-time exchange codes (POST /oauth/exchange, the Schibsted SPiD login docs)",
      "properties": {
        "codeLifetimeSeconds": { "type": "integer", "minimum": 5, "maximum": 600, "default": 30, "description": "type=code, redeemed at the token endpoint" },
        "sessionLifetimeSeconds": { "type": "integer", "minimum": 5, "maximum": 600, "default": 60, "description": "type=session, opened at /auth/session/{code}" }
      }
    },
    "appToApp": {
      "type": "object", "additionalProperties": false,
      "description": "requested_flow=app_to_app: the host's own app approves third-party sign-ins",
      "properties": {
        "deepLink": { "type": "string", "minLength": 1, "maxLength": 2048, "description": "the parked page's link into the host's app, before ?reference=...; default: <issuer>/app-to-app" },
        "referenceLifetimeSeconds": { "type": "integer", "minimum": 30, "maximum": 900, "default": 300 }
      }
    },
    "signIn": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "serviceName": { "type": "string", "minLength": 1, "maxLength": 64 },
        "privacyStatementUrl": { "$ref": "#/$defs/httpUrl" },
        "sessionLifetimeSeconds": { "type": "integer", "minimum": 60, "maximum": 2592000, "default": 28800 },
        "bcryptCost": { "type": "integer", "minimum": 4, "maximum": 31, "default": 12 },
        "throttle": {
          "type": "object", "additionalProperties": false,
          "properties": {
            "maxFailures": { "type": "integer", "minimum": 1, "maximum": 1000, "default": 5 },
            "windowSeconds": { "type": "integer", "minimum": 1, "maximum": 86400, "default": 900 }
          }
        }
      }
    },
    "office": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "authorizationUri": { "$ref": "#/$defs/httpUrl" },
        "tokenIssuanceUri": { "$ref": "#/$defs/httpUrl" },
        "providerId": {
          "description": "letters and digits as registered with Office; `_` is accepted with a warning",
          "type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z0-9_]+$"
        },
        "urlSchemes": {
          "type": "object", "additionalProperties": false,
          "properties": {
            "iOS": { "type": "array", "items": { "$ref": "#/$defs/urlScheme" }, "uniqueItems": true, "maxItems": 16 },
            "Android": {
              "type": "array", "uniqueItems": true, "maxItems": 16,
              "items": {
                "type": "object", "additionalProperties": false,
                "required": ["minimumVersionCode", "packageName", "authActivity"],
                "properties": {
                  "minimumVersionCode": { "type": "integer", "minimum": 1, "maximum": 2100000000 },
                  "packageName": {
                    "description": "an Android application id such as com.contoso.app",
                    "type": "string", "maxLength": 255, "pattern": "^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$"
                  },
                  "authActivity": {
                    "description": "the fully qualified class name of the auth activity",
                    "type": "string", "maxLength": 255, "pattern": "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_$]*)*$"
                  }
                }
              }
            },
            "UWP": { "type": "array", "items": { "$ref": "#/$defs/urlScheme" }, "uniqueItems": true, "maxItems": 16 }
          }
        },
        "resourceMetadata": { "type": "boolean", "default": false },
        "additionalChallenges": {
          "type": "array", "maxItems": 8,
          "items": {
            "description": "an auth-scheme, then its parameters, e.g. Basic realm=\"files\"",
            "type": "string", "maxLength": 1024, "pattern": "^[!#$%&'*+.^_`|~0-9A-Za-z-]+( [^\\r\\n]*)?$"
          }
        }
      }
    },
    "wopi": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "ecosystemUrlTemplate": { "$ref": "#/$defs/tokenUrlTemplate", "description": "default: <issuer>/wopi/ecosystem?access_token={access_token}" },
        "rootContainer": {
          "type": "object", "additionalProperties": false, "required": ["name"],
          "description": "default: {name: Files, urlTemplate: <issuer>/wopi/containers/root?access_token={access_token}}",
          "properties": {
            "name": { "type": "string", "minLength": 1, "maxLength": 255 },
            "urlTemplate": { "$ref": "#/$defs/tokenUrlTemplate" }
          }
        },
        "wopiSrcPrefixes": { "type": "array", "minItems": 1, "uniqueItems": true, "items": { "$ref": "#/$defs/httpUrl" }, "description": "default: [<issuer>/wopi/files/]" },
        "accessTokenLifetimeSeconds": { "type": "integer", "minimum": 60, "maximum": 604800, "default": 36000 }
      }
    },
    "clients": {
      "type": "array", "default": [],
      "items": {
        "type": "object", "additionalProperties": false, "required": ["id", "redirectUris", "grants"],
        "properties": {
          "id": { "type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[\\x21-\\x7E]+$" },
          "public": { "type": "boolean", "default": false },
          "secretHash": {
            "description": "sha256:<64 hex digits> of the client secret",
            "type": "string", "pattern": "^sha256:[0-9a-f]{64}$"
          },
          "secrets": {
            "description": "more secrets beside secretHash, each with an optional expiry, to rotate without an outage; any live one is accepted (docs/keys-and-secrets.md)",
            "type": "array", "minItems": 1, "maxItems": 8,
            "items": {
              "type": "object", "additionalProperties": false, "required": ["hash"],
              "properties": {
                "hash": { "type": "string", "pattern": "^sha256:[0-9a-f]{64}$" },
                "expiresAt": { "description": "YYYY-MM-DDTHH:MM:SSZ (UTC): refused from then on", "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$" }
              }
            }
          },
          "redirectUris": { "type": "array", "minItems": 1, "uniqueItems": true, "items": { "type": "string", "minLength": 1, "maxLength": 2048 } },
          "grants": {
            "type": "array", "minItems": 1, "uniqueItems": true,
            "items": { "enum": ["authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:token-exchange"] }
          },
          "tokenEndpointOverride": { "$ref": "#/$defs/httpUrl" },
          "merchant": { "type": "string", "minLength": 1, "maxLength": 128, "description": "the merchant (tenant) the client belongs to: exchange codes and token exchange only move a user between clients of one merchant" },
          "profile": { "enum": ["strict", "office"], "default": "strict", "description": "office: allow exactly Office's documented deviations (the https://localhost stop URL, sign-in in its WebView); strict: RFC 8252 as written" },
          "sessionContext": { "type": "boolean", "default": false },
          "name": { "type": "string", "minLength": 1, "maxLength": 128 },
          "firstParty": { "type": "boolean", "default": false },
          "scopes": {
            "type": "array", "uniqueItems": true, "maxItems": 32,
            "items": { "type": "string", "pattern": "^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$" }
          },
          "requireNonce": { "type": "boolean", "default": false, "description": "refuse OpenID Connect requests without nonce" },
          "postLogoutRedirectUris": { "type": "array", "uniqueItems": true, "items": { "type": "string", "minLength": 1, "maxLength": 2048 } },
          "idTokenSignedResponseAlg": { "enum": ["RS256", "ES256"], "default": "RS256", "description": "how this client's ID tokens are signed (OpenID Connect Dynamic Client Registration §2: RS256 unless the client asks otherwise)" },
          "appCallbackUris": { "type": "array", "uniqueItems": true, "items": { "type": "string", "minLength": 1, "maxLength": 2048 }, "description": "app_callback_uri values for requested_flow=app_to_app, matched exactly" },
          "appToAppApprovers": { "type": "array", "uniqueItems": true, "items": { "type": "string", "minLength": 1, "maxLength": 128 }, "description": "first-party client ids whose access tokens may approve this client's app_to_app requests" }
        }
      }
    },
    "upstreams": {
      "type": "array", "default": [], "maxItems": 16,
      "description": "upstream OpenID providers: the sign-in page offers 'Continue with <name>', and the session broker (/auth/{id}/login) signs in through them",
      "items": {
        "type": "object", "additionalProperties": false, "required": ["id", "name", "issuer", "clientId"],
        "properties": {
          "id": { "type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z0-9][a-z0-9-]*$", "description": "in URLs: /auth/{id}/login, /auth/upstream/{id}/callback" },
          "name": { "type": "string", "minLength": 1, "maxLength": 64, "description": "shown as 'Continue with <name>'" },
          "issuer": { "$ref": "#/$defs/httpUrl", "description": "the provider's issuer; <issuer>/.well-known/openid-configuration is read at first use" },
          "clientId": { "type": "string", "minLength": 1, "maxLength": 256 },
          "clientSecret": { "type": "string", "minLength": 1, "maxLength": 512, "description": "sent with HTTP Basic to the token endpoint; absent: a public client (PKCE only)" },
          "scopes": { "type": "array", "uniqueItems": true, "maxItems": 32, "default": ["openid", "profile", "email"], "items": { "type": "string", "pattern": "^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$" } },
          "appToApp": { "type": "boolean", "default": false, "description": "the provider supports requested_flow=app_to_app (Vipps Login API); the broker asks for it when the app does" },
          "appCallbackUri": { "type": "string", "minLength": 1, "maxLength": 2048, "description": "app_callback_uri sent with requested_flow=app_to_app; required when appToApp" },
          "claims": {
            "type": "object", "additionalProperties": false,
            "description": "which ID token or UserInfo claims fill the local user's fields",
            "properties": {
              "name": { "type": "string", "minLength": 1, "maxLength": 64, "default": "name" },
              "email": { "type": "string", "minLength": 1, "maxLength": 64, "default": "email" },
              "emailVerified": { "type": "string", "minLength": 1, "maxLength": 64, "default": "email_verified" },
              "phoneNumber": { "type": "string", "minLength": 1, "maxLength": 64, "default": "phone_number" }
            }
          },
          "linkByVerifiedEmail": { "type": "boolean", "default": false, "description": "link a first sign-in to the one local user with that email, only when the provider marks it verified" },
          "timeoutSeconds": { "type": "integer", "minimum": 1, "maximum": 60, "default": 10, "description": "each call to the provider (discovery, JWKS, token, UserInfo)" }
        }
      }
    },
    "broker": {
      "type": "object", "additionalProperties": false,
      "description": "the session broker for native apps (/auth/{provider}/login and /session, the Vipps iOS login guide's API with PKCE)",
      "properties": {
        "clientId": { "type": "string", "minLength": 1, "maxLength": 128, "description": "the app's client: its redirectUris are the deep links the broker may send the browser to, and the token is issued to it; absent: the broker is off" },
        "sessionLifetimeSeconds": { "type": "integer", "minimum": 5, "maximum": 900, "default": 180, "description": "from /login to the one /session call" },
        "loginLifetimeSeconds": { "type": "integer", "minimum": 5, "maximum": 3600, "default": 600, "description": "how long an upstream login (state, nonce, verifier) waits for its callback" }
      }
    },
    "partnerApps": {
      "type": "array", "maxItems": 64,
      "description": "apps that receive sign-in at https redirects on this host: the server answers /.well-known/apple-app-site-association and /.well-known/assetlinks.json for them",
      "items": {
        "type": "object", "additionalProperties": false, "required": ["redirectPaths"],
        "properties": {
          "ios": {
            "type": "object", "additionalProperties": false, "required": ["teamId", "bundleIds"],
            "properties": {
              "teamId": { "description": "the Apple developer team ID", "type": "string", "pattern": "^[A-Z0-9]{10}$" },
              "bundleIds": {
                "type": "array", "minItems": 1, "maxItems": 32, "uniqueItems": true,
                "items": { "type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[A-Za-z0-9.-]+$" }
              }
            }
          },
          "android": {
            "type": "object", "additionalProperties": false, "required": ["packageName", "sha256Fingerprints"],
            "properties": {
              "packageName": { "type": "string", "maxLength": 255, "pattern": "^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$" },
              "sha256Fingerprints": {
                "description": "SHA-256 fingerprints of the app signing certificate (Play Console's app signing key, not only the upload key)",
                "type": "array", "minItems": 1, "maxItems": 16, "uniqueItems": true,
                "items": { "type": "string", "pattern": "^([0-9A-F]{2}:){31}[0-9A-F]{2}$" }
              }
            }
          },
          "redirectPaths": {
            "description": "the https redirect paths on this host the apps receive, without wildcards",
            "type": "array", "minItems": 1, "maxItems": 64, "uniqueItems": true,
            "items": { "type": "string", "minLength": 1, "maxLength": 1024, "pattern": "^/[^*?#\\s]*$" }
          }
        }
      }
    },
    "users": {
      "type": "array", "default": [],
      "items": {
        "type": "object", "additionalProperties": false, "required": ["id", "signInName", "passwordHash"],
        "properties": {
          "id": { "type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[\\x21-\\x7E]+$" },
          "signInName": { "type": "string", "minLength": 1, "maxLength": 320 },
          "friendlyName": { "type": "string", "minLength": 1, "maxLength": 256 },
          "passwordHash": {
            "description": "a bcrypt hash ($2b$...)",
            "type": "string", "pattern": "^\\$2[aby]\\$[0-9]{2}\\$[./A-Za-z0-9]{53}$"
          },
          "email": { "type": "string", "minLength": 3, "maxLength": 320 },
          "phoneNumber": { "type": "string", "minLength": 1, "maxLength": 32 }
        }
      }
    }
  },
  "$defs": {
    "httpUrl": {
      "description": "an absolute http(s) URL without quotes, commas or spaces",
      "type": "string", "minLength": 1, "maxLength": 2048, "pattern": "^https?://[^\\s\"',]+$"
    },
    "tokenUrlTemplate": {
      "description": "an absolute http(s) URL containing {access_token}",
      "type": "string", "maxLength": 2048, "pattern": "^https?://[^\\s\"',]*\\{access_token\\}[^\\s\"',]*$"
    },
    "urlScheme": {
      "description": "a URL scheme as RFC 3986 section 3.1 defines it",
      "type": "string", "maxLength": 64, "pattern": "^[A-Za-z][A-Za-z0-9+.-]*$"
    }
  }
}
"""#
}
