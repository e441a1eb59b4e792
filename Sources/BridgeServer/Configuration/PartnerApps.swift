extension BridgeConfiguration {
    /// An app that receives sign-in at an https redirect on this host (a Universal Link, an App Link), so the host
    /// publishes the association files the platforms verify it with (`PartnerAppAssociations`).
    public struct PartnerApp: Sendable, Codable, Hashable {
        public var ios: IOSApp?
        public var android: AndroidApp?
        /// Paths on this host the app receives, e.g. `/oauth2/callback` (no wildcards: the schema refuses them).
        public var redirectPaths: [String]

        public struct IOSApp: Sendable, Codable, Hashable {
            public var teamId: String
            public var bundleIds: [String]

            /// `TEAMID.bundle`, as apple-app-site-association names apps.
            public var appIDs: [String] { bundleIds.map { "\(teamId).\($0)" } }
        }

        public struct AndroidApp: Sendable, Codable, Hashable {
            public var packageName: String
            /// SHA-256 fingerprints of the app signing certificate, `AA:BB:…`.
            public var sha256Fingerprints: [String]
        }
    }
}
