// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SignInBridge",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        // The piece partner apps embed: value types and codecs, no I/O.
        .library(name: "SignInProtocol", targets: ["SignInProtocol"]),
        // Checks partner apps' AndroidManifest.xml, Info.plist and url_schemes.json (libxml2 underneath).
        .library(name: "ManifestLint", targets: ["ManifestLint"]),
        // Walks a live host through the bootstrapper and sign-in as Office, a partner app and an attacker would.
        .library(name: "Conformance", targets: ["Conformance"]),
        .executable(name: "signin-bridge", targets: ["SignInBridgeCLI"]),
        // `signin-bridge lint` alone, for CI jobs that only lint partner apps (no server libraries to load).
        .executable(name: "signin-bridge-lint", targets: ["SignInBridgeLint"]),
        .executable(name: "signin-bridge-fuzz", targets: ["SignInBridgeFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Outgoing HTTP: the conformance suite and `lint --fetch`, redirects off (each decides what to follow).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // SHA-256 for PKCE; on Apple platforms this is CryptoKit underneath.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // bcrypt for local users' passwords (HummingbirdBcrypt).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // HTML templates of the sign-in and consent pages.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // PostgreSQL for several instances sharing one database (PostgresClient: its own bounded pool).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // TLS settings for `lint --fetch` (extra trust roots) and the tests' TLS hosts.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Certificates made in memory for the tests' TLS hosts (tests only).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // Round-trip property tests (tests only; SignInProtocol itself depends on nothing but swift-crypto).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // SignInProtocol without SHA-256: what the manifest linter needs, so that it links no crypto (BoringSSL).
        .target(name: "SignInProtocolCore"),
        // The product partner apps import: re-exports SignInProtocolCore and adds PKCE's S256 challenge.
        .target(
            name: "SignInProtocol",
            dependencies: ["SignInProtocolCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The store's protocols and records, in the language of the domain; no database here.
        .target(
            name: "BridgeStore",
            dependencies: [
                "SignInProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // SQLite's C API (Debian's libsqlite3-dev), for the embedded store's thin wrapper.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The embedded default store: one SQLite file, a writer connection and read connections (BridgeStoreSQLite/Engine).
        .target(
            name: "BridgeStoreSQLite",
            dependencies: [
                "BridgeStore",
                "CSQLite",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The store contract as a library: every store target's tests run these checks unchanged.
        .target(
            name: "BridgeStoreTesting",
            dependencies: ["BridgeStore"]
        ),
        // The PostgreSQL store: several server instances on one database.
        .target(
            name: "BridgeStorePostgres",
            dependencies: [
                "BridgeStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The server's HTTP floor: framing, logging, request metrics, request context, hardening; names no feature.
        .target(
            name: "BridgeHTTP",
            dependencies: [
                // JSON string escaping, HTTP whitespace and form decoding (value types, no I/O, no crypto).
                "SignInProtocolCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The HTTP server: configuration, signing keys, routes over services.
        .target(
            name: "BridgeServer",
            dependencies: [
                "BridgeHTTP",
                "BridgeStore",
                "SignInProtocol",
                // Calls to upstream OpenID providers (discovery, JWKS, token), with timeouts and redirects off.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA (RS256 ID tokens); jwt-kit already builds it for its own RSA support.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ],
            // The configuration's JSON Schema, a link to schemas/bridge-config.schema.json (its published path): the
            // server validates with it and takes every static default from it, and needs no file at run time.
            resources: [.embedInCode("Configuration/bridge-config.schema.json")]
        ),
        // libxml2 through a shim header that hides ICU and wraps libxml2's macros (TOOLCHAIN.md).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(
            name: "ManifestLint",
            dependencies: ["CLibXML2", "SignInProtocolCore", .product(name: "Yams", package: "Yams")],
            exclude: ["Schemas/README.md"],
            resources: [.embedInCode("Schemas/android-manifest.rng"), .embedInCode("Schemas/plist.rng")]
        ),
        // The lint command's options and run, shared by `signin-bridge lint` and `signin-bridge-lint`. No network
        // client: `--fetch` is handed one by `signin-bridge` (LintFetch), so that `signin-bridge-lint` links none.
        .target(
            name: "LintCommandLine",
            dependencies: ["ManifestLint", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `lint --fetch`'s HTTPS client, linked only into `signin-bridge`.
        .target(
            name: "LintFetch",
            dependencies: [
                "LintCommandLine",
                "ManifestLint",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // glibc's mallopt(3), for the standalone linter's allocation settings.
        .systemLibrary(name: "CMalloc"),
        .executableTarget(
            name: "SignInBridgeLint",
            dependencies: [
                "LintCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
            ],
            // Not position-independent: addresses are fixed at link time, so the loader applies none of the ~87,000
            // relative relocations a PIE of this size has (about 220 page faults, a fifth of the start-up's CPU time;
            // docs/lint-performance.md). The price is no ASLR for this executable's own image; it reads only local
            // files (`--fetch` is in `signin-bridge`, which stays PIE). Nor does it export its ~34,000 symbols to the
            // dynamic symbol table, which every library's symbol lookup searched first (0.4 M instructions, ~0.4 ms).
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "-no-pie", "-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .target(
            name: "Conformance",
            dependencies: [
                "SignInProtocol",
                // The association-file check judges what a host serves with the linter's own rules.
                "ManifestLint",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "SignInBridgeCLI",
            dependencies: [
                "Conformance",
                "BridgeHTTP",
                "BridgeServer",
                "BridgeStore",
                "BridgeStorePostgres",
                "BridgeStoreSQLite",
                "SignInProtocol",
                "ManifestLint",
                "LintCommandLine",
                "LintFetch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // SHA-256 of `lint --signing-cert` certificate files (signin-bridge-lint links no crypto).
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Stays position-independent (ASLR), with its ~70,000 relative relocations packed (DT_RELR, glibc 2.36+):
            // 17 KB instead of 1.6 MB of table the loader reads at every start. Measured on the running server
            // (`scripts/bench/load.sh`, idle): RSS 50.0 -> 48.5 MiB, under mixed load 64.9 -> 63.7 MiB. Gold, the
            // default linker here, cannot pack them; lld ships with the Swift toolchain.
            // The functions the server runs are laid out together, in the order of the file below (lld's
            // --symbol-ordering-file), so that the pages they fault in hold little else: docs/memory.md. It takes
            // effect function by function when every module is compiled with a section per function, as
            // scripts/release/build.sh (`make release`) does.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/release/signin-bridge.order",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        // What a partner app copies: answer Office's To URL or Android intent (samples/partner-app/README.md).
        // Built with the package so that it cannot rot.
        .executableTarget(
            name: "PartnerAppExample",
            dependencies: ["SignInProtocol"],
            path: "samples/partner-app",
            exclude: ["README.md"]
        ),
        // Fuzz targets for every decoder of untrusted input (scripts/fuzz.sh builds it with libFuzzer and ASan);
        // built normally it replays inputs: `signin-bridge-fuzz TARGET FILE…`.
        .executableTarget(
            name: "SignInBridgeFuzz",
            dependencies: ["SignInProtocol", "ManifestLint", "CFuzzerDriver"],
            path: "Fuzz/SignInBridgeFuzz"
        ),
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        // A merchant app's app_to_app sign-in with this server as the provider (samples/merchant-app/README.md).
        .executableTarget(
            name: "MerchantAppExample",
            // Crypto: the attested app signs its attestation PoP (CryptoKit's API on Apple platforms).
            dependencies: ["SignInProtocol", .product(name: "Crypto", package: "swift-crypto")],
            path: "samples/merchant-app",
            exclude: ["README.md"]
        ),
        // Not a test: To/Back URL codec speed against URLComponents, run by scripts/bench/protocol.sh (release).
        .executableTarget(
            name: "ProtocolBench",
            dependencies: ["SignInProtocol"],
            path: "Benchmarks/ProtocolBench"
        ),
        // Not a test: a Hummingbird route that does nothing, the baseline of scripts/bench/flow.sh's bootstrap run.
        .executableTarget(
            name: "RouteFloor",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Benchmarks/RouteFloor"
        ),
        // Not a test: two ES256 signatures and one SQLite write, the parts of a code flow other than its two HTTP
        // requests that cannot be skipped; scripts/bench/floor.sh adds RouteFloor's CPU per request to them.
        .executableTarget(
            name: "FlowFloor",
            dependencies: ["CSQLite", .product(name: "Crypto", package: "swift-crypto")],
            path: "Benchmarks/FlowFloor"
        ),
        .testTarget(
            name: "SignInProtocolTests",
            dependencies: [
                "SignInProtocol",
                // Internals of the core are tested too (`@testable import SignInProtocolCore`).
                "SignInProtocolCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "BridgeStoreSQLiteTests",
            dependencies: ["BridgeStore", "BridgeStoreSQLite", "BridgeStoreTesting"]
        ),
        // Needs a PostgreSQL server: SIGNIN_BRIDGE_TEST_POSTGRES_URL (scripts/test/postgres.sh starts one).
        .testTarget(
            name: "BridgeStorePostgresTests",
            dependencies: [
                "BridgeStore",
                "BridgeStorePostgres",
                "BridgeStoreTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The floor's own types, without a server.
        .testTarget(
            name: "BridgeHTTPTests",
            dependencies: [
                "BridgeHTTP",
                "SignInProtocolCore",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "BridgeServerTests",
            dependencies: [
                "BridgeHTTP",
                "BridgeServer",
                "BridgeStore",
                "BridgeStoreSQLite",
                "SignInProtocol",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // ConfigurationBuilder edits fixture configurations as parsed YAML, not as text.
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "ManifestLintTests",
            dependencies: ["ManifestLint", "CLibXML2", "SignInProtocolCore"],
            // Real apps' manifests and plists, read from disk by CorpusGoldenTests.
            exclude: ["Corpus", "FuzzFindings"]
        ),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["Conformance", "SignInProtocol"]
        ),
        // Runs the built `signin-bridge` as a subprocess; depending on the executable target makes SwiftPM build it.
        .testTarget(
            name: "LintCommandLineTests",
            dependencies: [
                "LintCommandLine",
                "LintFetch",
                // Built for FetchCommandTests, which runs both executables.
                "SignInBridgeCLI",
                "SignInBridgeLint",
                "ManifestLint",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SignInBridgeCLITests",
            dependencies: [
                "SignInBridgeCLI", "PartnerAppExample", "MerchantAppExample", "SignInProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
