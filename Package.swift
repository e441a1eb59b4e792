// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SignInBridge",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        // The piece partner apps embed: value types and codecs, no I/O.
        .library(name: "SignInProtocol", targets: ["SignInProtocol"]),
        .executable(name: "signin-bridge", targets: ["SignInBridgeCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // SHA-256 for PKCE; on Apple platforms this is CryptoKit underneath.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        // Round-trip property tests (tests only; SignInProtocol itself depends on nothing but swift-crypto).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "SignInProtocol",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .executableTarget(
            name: "SignInBridgeCLI",
            dependencies: [
                "SignInProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "SignInProtocolTests",
            dependencies: [
                "SignInProtocol",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Runs the built `signin-bridge` as a subprocess; depending on the executable target makes SwiftPM build it.
        .testTarget(
            name: "SignInBridgeCLITests",
            dependencies: ["SignInBridgeCLI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
