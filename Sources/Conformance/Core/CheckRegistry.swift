/// Every check, in the order a run walks the protocol: what Office sees first comes first.
public enum CheckRegistry {
    public static let all: [any ConformanceCheck.Type] = [
        ChallengeStatusCheck.self, SingleBearerCheck.self, EndpointsCheck.self, ProviderIdCheck.self,
        UrlSchemesCheck.self, NaiveSplitCheck.self, EmptyListElementCheck.self, DuplicateParameterCheck.self,
        QuotedValuesCheck.self,
        MissingTokenCheck.self, BlankTokenCheck.self, MalformedTokenCheck.self, ExpiredTokenCheck.self,
        ForeignSignedTokenCheck.self,
        SignInCheck.self, StateEchoCheck.self, SessionContextCheck.self,
        TokenResponseShapeCheck.self, NoStoreCheck.self,
        AuthenticatedBootstrapCheck.self, NewAccessTokenCheck.self, ForeignWopiSrcCheck.self, RootContainerCheck.self,
        RefreshRotationCheck.self, RefreshReuseCheck.self,
        CodeReuseRefusedCheck.self, CodeReuseRevokesCheck.self,
        UnregisteredRedirectCheck.self, PrefixRedirectCheck.self,
        PKCERequiredCheck.self, PKCEVerifiedCheck.self, PKCEWrongVerifierCheck.self, PKCEDowngradeCheck.self,
        MetadataConsistencyCheck.self,
    ]

    public static var descriptors: [CheckDescriptor] { all.map { check in check.descriptor } }
}
