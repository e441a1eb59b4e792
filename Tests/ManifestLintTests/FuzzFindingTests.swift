import Foundation
import Testing

@testable import ManifestLint

/// Inputs the fuzz targets (scripts/fuzz.sh) found a defect with, kept as they were found. Debug builds check the
/// buffer bounds these inputs once crossed, so each test fails by trapping if the defect comes back.
@Suite struct FuzzFindingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzFindings")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// A manifest that ends inside an attribute value: the source map's scanner stepped past the end of the buffer
    /// while turning the offset into a line and column (heap-buffer-overflow under AddressSanitizer).
    @Test func sourceMapStopsAtTheEndOfATruncatedAttribute() throws {
        let diagnoses = Linter().lint(bytes: try Self.bytes("source-map-past-the-end.xml"), kind: .androidManifest)
        #expect(!diagnoses.isEmpty, "the file is not a valid manifest; it must be reported, not crash")
        for diagnosis in diagnoses {
            #expect(diagnosis.position.line >= 1 && diagnosis.position.column >= 1)
        }
    }
}
