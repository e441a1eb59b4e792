/// Every check, in the order a run walks the protocol: what Office sees first comes first.
public enum CheckRegistry {
    public static let all: [any ConformanceCheck.Type] = [
        ChallengeStatusCheck.self, SingleBearerCheck.self, EndpointsCheck.self, ProviderIdCheck.self,
        UrlSchemesCheck.self, NaiveSplitCheck.self, EmptyListElementCheck.self, DuplicateParameterCheck.self,
        QuotedValuesCheck.self, TokenEndpointPublicCheck.self,
        MissingTokenCheck.self, EmptyHeaderCheck.self, BlankTokenCheck.self, WhitespaceTokenCheck.self,
        LowercaseSchemeCheck.self, MalformedTokenCheck.self, TwoHeadersCheck.self, QueryTokenCheck.self,
        ExpiredTokenCheck.self, ForeignSignedTokenCheck.self,
        SignInCheck.self, StateEchoCheck.self, SessionContextCheck.self, IssuerParameterCheck.self,
        TokenResponseShapeCheck.self, NoStoreCheck.self,
        AuthenticatedBootstrapCheck.self, NewAccessTokenCheck.self, AccessTokenExpiryCheck.self, ForeignWopiSrcCheck.self,
        RootContainerCheck.self,
        CheckEcosystemCheck.self, EcosystemRootContainerCheck.self, EcosystemInvalidTokenCheck.self,
        RefreshRotationCheck.self, RefreshWithoutScopeCheck.self, RefreshReuseCheck.self, PublicRefreshRotationCheck.self, PublicRefreshReuseCheck.self,
        CodeReuseRefusedCheck.self, CodeReuseRevokesCheck.self, CodeOtherClientCheck.self,
        UnregisteredRedirectCheck.self, PrefixRedirectCheck.self, ExtraQueryRedirectCheck.self,
        PKCERequiredCheck.self, PKCEVerifiedCheck.self, PKCEWrongVerifierCheck.self, PKCEVerifierRequiredCheck.self,
        PKCEDowngradeCheck.self, PKCEPlainRefusedCheck.self, PKCEVerifierSyntaxCheck.self, PKCEChallengeReuseCheck.self,
        MetadataConsistencyCheck.self,
        DiscoveryRequiredCheck.self, IDTokenClaimsCheck.self, StableSubjectCheck.self, UserInfoCheck.self,
        CallbackExactCheck.self, SimpleLoginPKCECheck.self, ResumeSingleUseCheck.self,
        ExchangeChallengeCheck.self, ExchangeSingleUseCheck.self,
        DPoPTokenTypeCheck.self, DPoPProofSignatureCheck.self, DPoPProofPrivateKeyCheck.self, DPoPProofMethodCheck.self,
        DPoPProofURICheck.self, DPoPProofAgeCheck.self, DPoPProofReplayCheck.self, DPoPRefreshBindingCheck.self,
        DPoPResourceProofCheck.self, DPoPBearerDowngradeCheck.self,
        PARPushCheck.self, PARClientAuthenticationCheck.self, PARRequestURIParameterCheck.self, PARAuthorizeCheck.self,
        PARSingleUseCheck.self, PAROtherClientCheck.self, PARValidatedCheck.self,
        FirstPartyCodeCheck.self, FirstPartyPKCEBoundCheck.self, FirstPartyOnlyCheck.self, FirstPartyInvalidSessionCheck.self,
        FirstPartyResponseTypeCheck.self, FirstPartySessionReplayCheck.self,
        NativeSSODeviceSecretCheck.self, NativeSSOExchangeCheck.self, NativeSSOForeignSecretCheck.self, NativeSSOBoundSecretCheck.self,
        AttestationAcceptedCheck.self, AttestationExpiredCheck.self, AttestationUntrustedAttesterCheck.self, AttestationPoPKeyCheck.self,
        AttestationPoPAudienceCheck.self, AttestationClientIDCheck.self, AttestationPrivateKeyCheck.self,
        AssociationFilesCheck.self,
        // Last: it judges every error the checks before it provoked.
        ErrorCodeCheck.self, ErrorCharsetCheck.self,
    ]

    public static var descriptors: [CheckDescriptor] { all.map { check in check.descriptor } }
}
