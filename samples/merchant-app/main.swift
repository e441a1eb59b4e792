// A merchant app's side of "Continue with Example Files" with requested_flow=app_to_app (the Vipps/MobilePay
// "integrate from a mobile app" flow, with SignInBridge's host app in the provider's seat), and the host app's side
// of the deep link. Each command is one step an app takes; see README.md for the walk-through with curl.
//
//   MerchantAppExample authorize ISSUER           the URL the merchant opens in its browser tab (+ its secrets)
//   MerchantAppExample approve DEEP_LINK [deny]    the host app: the form body it posts to the approval API
//   MerchantAppExample callback URL STATE          the merchant: what to do with app_callback_uri?…
//   MerchantAppExample redirect URL STATE VERIFIER the merchant: the token request for redirect_uri?code=…
//   MerchantAppExample native-sso ISSUER RESPONSE  a second app of the vendor (OpenID Connect Native SSO draft 07):
//                                                  the token exchange for the first app's token response (JSON)
//
// Simple Login (requested_flow=app_to_app_v2): the consent is given in the host's app, which opens the merchant's
// https redirect_uri with the code itself (no app_callback_uri, no resume_uri; PKCE binds the code to this app).
//
//   MerchantAppExample authorize-v2 ISSUER         the Simple Login URL for the browser tab (+ its secrets)
//   MerchantAppExample open ANSWER_JSON            the host app: the URL the decision's answer says to open
//
// Attestation-based client authentication (docs/client-attestation.md):
//
//   MerchantAppExample attestation-pop ISSUER KEY  an attested app: the OAuth-Client-Attestation-PoP header for
//                                                  its next request, signed with its instance key (a PEM P-256 file)
import Crypto
import Foundation
import SignInProtocol

let clientID = "merchant-app"
let redirectURI = "com.example.merchant:/oauth2redirect"
let appCallbackURI = "com.example.merchant:/app-callback"
/// Simple Login returns through a universal link / App Link: an https URL only this app is verified for.
let simpleLoginRedirectURI = "https://merchant.example.com/app/callback"
/// A second app of one vendor, in the same `ssoGroup` as the first (`sso-app-b` in samples/bridge.yaml).
let ssoSiblingID = "sso-app-b"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("authorize", 2):
    // Keep verifier, state and nonce in the app; only the challenge, state and nonce travel.
    let verifier = PKCE.Verifier.random()
    let state = SecretState.make()
    let nonce = SecretState.make()
    do {
        let request = try AppToAppAuthorization(
            clientID: clientID, redirectURI: redirectURI, appCallbackURI: appCallbackURI, scope: "openid profile email",
            state: state, nonce: nonce, pkce: verifier.challenge())
        print(request.url(authorizationEndpoint: arguments[1] + "/oauth2/authorize"))
        print("state=\(state) nonce=\(nonce) code_verifier=\(verifier.value)")
    } catch {
        fail("authorize: \(error)")
    }
case ("authorize-v2", 2):
    let verifier = PKCE.Verifier.random()
    let state = SecretState.make()
    let nonce = SecretState.make()
    do {
        let request = try SimpleLoginAuthorization(
            clientID: clientID, redirectURI: simpleLoginRedirectURI, pkce: verifier.challenge(), state: state,
            scope: "openid profile email", nonce: nonce)
        print(request.url(authorizationEndpoint: arguments[1] + "/oauth2/authorize"))
        print("state=\(state) nonce=\(nonce) code_verifier=\(verifier.value)")
    } catch {
        fail("authorize-v2: \(error)")
    }
case ("open", 2):
    do {
        // The host app opens the merchant's link itself; the merchant's app (not the browser) receives it.
        print("open: \(try AppToAppRedirectAnswer.decode(json: arguments[1]).redirectURL)")
    } catch {
        fail("open: \(error)")
    }
case ("approve", 2), ("approve", 3):
    do {
        let link = try AppToAppDeepLink.decode(url: arguments[1])
        let decision: AppToAppApproval.Decision = arguments.count == 3 && arguments[2] == "deny" ? .deny : .approve
        print(AppToAppApproval(reference: link.reference, decision: decision).body)
    } catch {
        fail("approve: \(error)")
    }
case ("callback", 3):
    do {
        let callback = try AppCallback.decode(url: arguments[1])
        guard callback.matches(state: arguments[2]) else { fail("callback: state does not match; ignore it") }
        switch callback.outcome {
        case .approved(let resumeURI?): print("open in the same browser tab: \(resumeURI)")
        case .approved(nil): print("show the browser tab again")
        case .failed(let error): print("sign-in failed: \(error.code.rawValue)")
        }
    } catch {
        fail("callback: \(error)")
    }
case ("redirect", 4):
    do {
        let response = try AuthorizationResponse.decode(redirectURL: arguments[1])
        guard response.state == arguments[2] else {
            fail("redirect: state does not match; ignore it")
        }
        guard let code = response.code else { fail("redirect: no code") }
        var form = FormParameters()
        form.append("grant_type", "authorization_code")
        form.append("code", code)
        // The token request names the redirect URI the code was sent to (RFC 6749 §4.1.3).
        let sentTo = arguments[1].hasPrefix(simpleLoginRedirectURI + "?") ? simpleLoginRedirectURI : redirectURI
        form.append("redirect_uri", sentTo)
        form.append("client_id", clientID)
        form.append("code_verifier", arguments[3])
        print(form.encoded)
    } catch {
        fail("redirect: \(error)")
    }
case ("native-sso", 3):
    // The first app keeps its ID token and device secret where the vendor's other apps can read them (the keychain
    // access group); the second app trades them for its own tokens without a browser (§4.2).
    do {
        let first = try TokenResponse.decode(json: arguments[2])
        guard case .string(let idToken)? = first.additionalFields["id_token"], let deviceSecret = first.deviceSecret else {
            fail("native-sso: the response has no id_token and device_secret; ask for scope openid device_sso")
        }
        let request = TokenRequest(
            grant: .tokenExchange(.nativeSSO(idToken: idToken, deviceSecret: deviceSecret, audience: arguments[1])),
            scope: "openid", client: ClientAuthentication(clientID: ssoSiblingID))
        print(request.formBody)
    } catch {
        fail("native-sso: \(error)")
    }
case ("attestation-pop", 3):
    // docs/client-attestation.md: a new PoP (fresh jti and iat) for every request, beside the attestation the app's
    // backend issued for this key. On a phone the key stays in the Secure Enclave or StrongBox; here it is a file.
    guard let pem = try? String(contentsOfFile: arguments[2], encoding: .utf8),
        let key = try? P256.Signing.PrivateKey(pemRepresentation: pem)
    else { fail("attestation-pop: \(arguments[2]) is not a PEM P-256 private key") }
    let input = ClientAttestationPoP.signingInput(
        audience: arguments[1], id: SecretState.make(), issuedAt: Int64(Date().timeIntervalSince1970))
    guard let signature = try? key.signature(for: Array(input.utf8)) else { fail("attestation-pop: signing failed") }
    print("\(ClientAttestationNames.proofOfPossessionHeader): "
        + ClientAttestationPoP.compact(signingInput: input, signature: Array(signature.rawRepresentation)))
default:
    fail(
        "usage: MerchantAppExample authorize ISSUER | authorize-v2 ISSUER | approve DEEP_LINK [deny] | open ANSWER_JSON"
            + " | callback URL STATE | redirect URL STATE VERIFIER | attestation-pop ISSUER KEY | native-sso ISSUER RESPONSE")
}

/// 128 random bits, base64url: for `state` and `nonce`.
enum SecretState {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
