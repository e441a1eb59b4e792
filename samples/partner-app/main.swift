// A partner app's side of Office app-to-app sign-in, runnable from a shell.
//
//   PartnerAppExample ios '<To URL>' [--cancel]             prints the Back URL the app would open
//   PartnerAppExample android 'AuthorizeUrlQueryParams=<query>' ['UserId=<id>'] [--cancel]
//                                                            prints the result code and extras
//   PartnerAppExample first-party start USER [PASSWORD]     the host's own app signing in natively: prints the PKCE
//                                                            verifier, then the authorization challenge request
//   PartnerAppExample first-party next ISSUER ANSWER_JSON VERIFIER [PASSWORD]
//                                                            what to send or open after the endpoint's answer
//
// Exit status: 0 an answer for Office was produced (success or error form), 1 nothing can be returned to Office,
// 2 usage. See README.md in this folder.
import Foundation
import SignInProtocol

/// The client_id Office uses with this demo service; yours is agreed when you onboard with Microsoft.
let officeClientID = ProcessInfo.processInfo.environment["OFFICE_CLIENT_ID"] ?? "abcdefg"

var arguments = Array(CommandLine.arguments.dropFirst())
let userCancels = arguments.contains("--cancel")
arguments.removeAll { $0 == "--cancel" }

/// The host's own app's client (first-party: `firstParty: true` in the host's configuration).
let firstParty = FirstPartySignIn(
    clientID: ProcessInfo.processInfo.environment["FIRST_PARTY_CLIENT_ID"] ?? "partner-app", scope: "openid")

let responder = OfficeSignInResponder(
    officeClientID: officeClientID, accountSignIn: StandInAccountSignIn(userCancels: userCancels))

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

switch (arguments.first, arguments.count) {
case ("ios", 2):
    switch await responder.respond(toURL: arguments[1]) {
    case .openBackURL(let url): print(url)
    case .ignore(let reason): fail("not answerable: \(reason)", status: 1)
    }
case ("android", 2...):
    var extras = [String: String]()
    for pair in arguments.dropFirst() {
        guard let equals = pair.firstIndex(of: "=") else { fail("extras are NAME=VALUE, got '\(pair)'", status: 2) }
        extras[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
    }
    let response = await responder.respond(toIntentExtras: extras)
    print("resultCode=\(response.resultCode.value)")
    for (name, value) in response.extras().sorted(by: { $0.key < $1.key }) { print("\(name)=\(value)") }
case ("first-party", 3...) where arguments[1] == "start":
    let verifier = PKCE.Verifier.random()
    print("verifier=\(verifier.value)")
    print(firstParty.start(verifier: verifier, username: arguments[2], password: arguments.count > 3 ? arguments[3] : nil).encoded)
case ("first-party", 5...) where arguments[1] == "next":
    do {
        let answer = try AuthorizationChallengeResponse.decode(json: arguments[3])
        let next = firstParty.next(
            after: answer, verifier: try PKCE.Verifier(arguments[4]),
            authorizationEndpoint: arguments[2] + "/oauth2/authorize", password: arguments.count > 5 ? arguments[5] : nil)
        switch next {
        case .challenge(let form): print("challenge " + form.encoded)
        case .redeem(let form): print("token " + form.encoded)
        case .openBrowser(let url): print("browser " + url)
        case .stop(let error): fail("stop: \(error)", status: 1)
        }
    } catch {
        fail("first-party: \(error)", status: 2)
    }
default:
    fail("usage: PartnerAppExample ios '<To URL>' [--cancel] | android 'AuthorizeUrlQueryParams=…' ['UserId=…'] [--cancel]"
        + " | first-party start USER [PASSWORD] | first-party next ISSUER ANSWER_JSON VERIFIER [PASSWORD]", status: 2)
}
