// A partner app's side of Office app-to-app sign-in, runnable from a shell.
//
//   PartnerAppExample ios '<To URL>' [--cancel]             prints the Back URL the app would open
//   PartnerAppExample android 'AuthorizeUrlQueryParams=<query>' ['UserId=<id>'] [--cancel]
//                                                            prints the result code and extras
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
default:
    fail("usage: PartnerAppExample ios '<To URL>' [--cancel] | android 'AuthorizeUrlQueryParams=…' ['UserId=…'] [--cancel]", status: 2)
}
