/// When two activities claim the same custom-scheme link (scheme, host and path), Android asks the user to choose
/// (or picks either), so the sign-in result can land in the wrong activity. One scheme routed to two activities by
/// host or path is fine. Linter also compares the claims of several apps' manifests linted together.
/// Rules for http(s) App Links differ and are not checked here.
public struct SchemeClaimedTwice: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-scheme-claimed-twice",
        severity: .warning,
        summary: "The same custom-scheme link (scheme, host and path) is claimed by two different activities or apps.",
        hint: "Let one activity own each custom scheme link, or tell them apart by android:host or android:path.",
        reference: .androidDeepLinks)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        let owners = LinkClaim.claims(of: manifest)
        var first = [LinkClaim: LinkClaim.Owner](minimumCapacity: owners.count)  // no rehashing as it fills
        var reported = Set<SourcePosition>()
        var diagnoses = [Diagnosis]()
        for owner in owners {
            guard let earlier = first[owner.claim] else {
                first[owner.claim] = owner
                continue
            }
            guard earlier.component.element.position != owner.component.element.position,
                reported.insert(owner.scheme.valuePosition).inserted
            else { continue }
            diagnoses.append(
                descriptor.finding(
                    "\(owner.claim) is also claimed by \(earlier.component.label) on line \(earlier.component.element.position.line)",
                    at: owner.scheme.valuePosition))
        }
        return diagnoses
    }

    /// The same check across manifests of different apps (different or unknown package names) linted in one run:
    /// both apps installed, the link opens a chooser. Returns (file, diagnosis) pairs.
    static func acrossApps(_ manifests: [(file: String, manifest: AndroidManifest)]) -> [(file: String, diagnosis: Diagnosis)] {
        // One manifest has no other app to collide with (and its own claims are checked by `check`); skipping the
        // pass saves about a tenth of a 5,000-line manifest's lint (callgrind, scripts/bench/lint.sh).
        guard manifests.count > 1 else { return [] }
        let rule = SchemeClaimedTwice()
        var first = [LinkClaim: (file: String, package: String?, owner: LinkClaim.Owner)]()
        var found = [(file: String, diagnosis: Diagnosis)]()
        var reported = Set<String>()
        for (file, manifest) in manifests {
            var claimedHere = [LinkClaim: LinkClaim.Owner]()
            for owner in LinkClaim.claims(of: manifest) where claimedHere[owner.claim] == nil { claimedHere[owner.claim] = owner }
            for (claim, owner) in claimedHere.sorted(by: { $0.value.scheme.valuePosition < $1.value.scheme.valuePosition }) {
                guard let earlier = first[claim] else {
                    first[claim] = (file, manifest.packageName, owner)
                    continue
                }
                let sameApp = earlier.file == file || (earlier.package != nil && earlier.package == manifest.packageName)
                guard !sameApp, reported.insert("\(file):\(owner.scheme.valuePosition)").inserted else { continue }
                found.append(
                    (file,
                     rule.descriptor.finding(
                        "\(claim) is also claimed by \(earlier.owner.component.label) of \(earlier.package ?? "another app") in \(earlier.file):\(earlier.owner.component.element.position.line)",
                        at: owner.scheme.valuePosition)))
            }
        }
        return found
    }
}
