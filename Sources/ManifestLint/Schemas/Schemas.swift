/// The schemas ManifestLint validates with, compiled once per process. The text comes from the repository's
/// `schemas/` folder, embedded at build time (see Schemas/README.md).
public enum ManifestSchemas {
    /// The AndroidManifest.xml subset that sign-in depends on (schemas/android-manifest.rng).
    public static let androidManifest: RelaxNGSchema = compile(
        "AndroidManifest.xml schema", PackageResources.android_manifest_rng)

    /// Apple XML property lists, version 1.0 (schemas/plist.rng).
    public static let propertyList: RelaxNGSchema = compile("property list schema", PackageResources.plist_rng)

    /// Validation of AndroidManifest.xml: a valid manifest is accepted by `AndroidManifestStructure` alone, and only
    /// one it does not accept is validated (and its error worded) by `androidManifest`, compiled on first use.
    static let androidManifestValidation = SchemaValidation(
        relaxNG: { androidManifest }, quickAccept: AndroidManifestStructure.accepts)

    static let propertyListValidation = SchemaValidation(relaxNG: { propertyList })

    private static func compile(_ name: String, _ bytes: [UInt8]) -> RelaxNGSchema {
        do {
            return try RelaxNGSchema(name: name, text: String(decoding: bytes, as: UTF8.self))
        } catch {
            // The schemas ship inside the binary and a test compiles them: failing here is a build defect.
            fatalError("\(error)")
        }
    }
}
