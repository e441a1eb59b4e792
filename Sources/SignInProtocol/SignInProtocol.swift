// What partner apps import: every type of SignInProtocolCore, plus what needs SHA-256 (PKCE+S256.swift). The core
// is a target of its own so that tools which never compute a PKCE challenge (the manifest linter) link no crypto.
@_exported import SignInProtocolCore
