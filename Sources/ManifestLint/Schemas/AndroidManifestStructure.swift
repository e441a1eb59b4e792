import CLibXML2

/// schemas/android-manifest.rng written out as a walk over libxml2's tree. It only answers "certainly valid": a valid
/// manifest (nearly every manifest linted) then needs no RelaxNG at all, while anything else goes on to libxml2's
/// validator, which finds and words the error exactly as before. Measured reason for writing it by hand: libxml2's
/// RelaxNG validation was 60 M of the 207 M instructions of linting the 5,000-line benchmark manifest
/// (scripts/bench/lint.sh, callgrind); this walk costs 2.4 M there. AndroidManifestStructureTests holds it to the
/// schema's verdict (libxml2's RelaxNG and xmllint) on the corpus, the fixtures and mutations of them.
/// RELAX NG semantics: https://relaxng.org/spec-20011203.html (§4.4 `value` defaults to the `token` type,
/// §6.2.7 whitespace-only text between elements is ignored).
enum AndroidManifestStructure {
    /// True only when schemas/android-manifest.rng accepts the document rooted at `root`. False means "ask RelaxNG":
    /// the document is invalid, or holds something this walk does not interpret (an entity reference).
    static func accepts(_ root: xmlNodePtr) -> Bool {
        guard root.pointee.type == XML_ELEMENT_NODE, root.pointee.ns == nil, Name.manifest.matches(root.pointee.name)
        else { return false }
        return accepts(root, as: .manifest)
    }

    /// The elements the schema defines (in no namespace); any other element is `otherElement` where that is allowed.
    private enum Name {
        case manifest, usesSdk, application, activity, activityAlias, intentFilter, action, category, data

        var text: StaticString {
            switch self {
            case .manifest: "manifest"
            case .usesSdk: "uses-sdk"
            case .application: "application"
            case .activity: "activity"
            case .activityAlias: "activity-alias"
            case .intentFilter: "intent-filter"
            case .action: "action"
            case .category: "category"
            case .data: "data"
            }
        }

        func matches(_ name: UnsafePointer<xmlChar>?) -> Bool { CString.equals(name, text) }

        /// The defined element named `name`, if any (no array of cases is made: this runs for every element).
        static func of(_ name: UnsafePointer<xmlChar>?) -> Name? {
            guard let name else { return nil }
            switch name.pointee {
            case UInt8(ascii: "m"): return manifest.matches(name) ? .manifest : nil
            case UInt8(ascii: "u"): return usesSdk.matches(name) ? .usesSdk : nil
            case UInt8(ascii: "a"):
                if application.matches(name) { return .application }
                if activity.matches(name) { return .activity }
                if activityAlias.matches(name) { return .activityAlias }
                return action.matches(name) ? .action : nil
            case UInt8(ascii: "i"): return intentFilter.matches(name) ? .intentFilter : nil
            case UInt8(ascii: "c"): return category.matches(name) ? .category : nil
            case UInt8(ascii: "d"): return data.matches(name) ? .data : nil
            default: return nil
            }
        }

        /// Whether the defined element `child` may appear in this one.
        func allows(_ child: Name) -> Bool {
            switch self {
            case .manifest: child == .usesSdk || child == .application
            case .application: child == .activity || child == .activityAlias
            case .activity, .activityAlias: child == .intentFilter
            case .intentFilter: child == .action || child == .category || child == .data
            case .usesSdk, .action, .category, .data: false
            }
        }

        /// Whether `otherElement` (any element the schema does not define, with any content) may appear in this one.
        var allowsOtherElements: Bool {
            switch self {
            case .manifest, .application, .activity, .activityAlias: true
            case .intentFilter, .usesSdk, .action, .category, .data: false
            }
        }
    }

    private static func accepts(_ element: xmlNodePtr, as name: Name) -> Bool {
        guard attributesAccepted(element, as: name) else { return false }
        var child = element.pointee.children
        while let node = child {
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                if node.pointee.ns == nil, let defined = Name.of(node.pointee.name) {
                    guard name.allows(defined), accepts(node, as: defined) else { return false }
                } else if !name.allowsOtherElements {
                    return false
                }  // otherElement: any attributes and content, nothing to check below it
            case XML_TEXT_NODE:
                guard CString.isBlank(node.pointee.content) else { return false }
            case XML_COMMENT_NODE, XML_PI_NODE:
                break
            default:
                return false  // entity references, CDATA: leave them to libxml2's validator
            }
            child = node.pointee.next
        }
        return true
    }

    /// The android: (and `package`) attributes the schema types; every other attribute is allowed as is.
    private static func attributesAccepted(_ element: xmlNodePtr, as name: Name) -> Bool {
        var hasName = false
        var hasTargetActivity = false
        var attribute = element.pointee.properties
        while let current = attribute {
            defer { attribute = current.pointee.next }
            let local = current.pointee.name
            let namespace = current.pointee.ns?.pointee.href
            if namespace == nil {
                if name == .manifest, CString.equals(local, "package") {
                    guard let value = plainValue(of: current), ValueShape.isJavaName(value) else { return false }
                }
                continue
            }
            guard CString.equals(namespace, "http://schemas.android.com/apk/res/android") else { continue }
            var shape: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil
            switch name {
            case .manifest:
                if CString.equals(local, "versionCode") { shape = ValueShape.isIntegerOrResource }
            case .usesSdk:
                if CString.equals(local, "minSdkVersion") || CString.equals(local, "targetSdkVersion")
                    || CString.equals(local, "maxSdkVersion")
                {
                    shape = ValueShape.isSDKVersion
                }
            case .activity, .activityAlias:
                if CString.equals(local, "name") {
                    hasName = true
                    shape = ValueShape.isComponentName
                } else if name == .activityAlias, CString.equals(local, "targetActivity") {
                    hasTargetActivity = true
                    shape = ValueShape.isComponentName
                } else if CString.equals(local, "exported") || CString.equals(local, "enabled") {
                    shape = ValueShape.isBooleanOrResource
                }
            case .intentFilter:
                if CString.equals(local, "autoVerify") {
                    shape = ValueShape.isBooleanOrResource
                } else if CString.equals(local, "priority") {
                    shape = ValueShape.isInteger
                }
            case .action, .category:
                if CString.equals(local, "name") {
                    hasName = true
                    shape = { !$0.isEmpty }
                }
            case .data:
                if CString.equals(local, "port") { shape = ValueShape.isIntegerOrPlaceholder }
            case .application:
                break
            }
            if let shape {
                guard let value = plainValue(of: current), shape(value) else { return false }
            }
        }
        switch name {
        case .activity, .action, .category: return hasName
        case .activityAlias: return hasName && hasTargetActivity
        default: return true
        }
    }

    /// The attribute's value when it is plain text (nil for one with an entity reference: RelaxNG decides those).
    private static func plainValue(of attribute: xmlAttrPtr) -> UnsafeBufferPointer<UInt8>? {
        guard let text = attribute.pointee.children else { return UnsafeBufferPointer(start: nil, count: 0) }
        guard text.pointee.type == XML_TEXT_NODE, text.pointee.next == nil, let content = text.pointee.content else {
            return nil
        }
        var count = 0
        while content[count] != 0 { count += 1 }
        return UnsafeBufferPointer(start: content, count: count)
    }
}

/// libxml2's NUL-terminated names and text, compared without making Swift strings.
enum CString {
    static func equals(_ text: UnsafePointer<xmlChar>?, _ literal: StaticString) -> Bool {
        guard let text else { return false }
        let expected = literal.utf8Start
        let count = literal.utf8CodeUnitCount
        for index in 0..<count where text[index] != expected[index] { return false }  // stops at text's NUL
        return text[count] == 0
    }

    /// Only XML whitespace (RELAX NG ignores such text between elements).
    static func isBlank(_ text: UnsafePointer<xmlChar>?) -> Bool {
        guard var cursor = text else { return true }
        while cursor.pointee != 0 {
            guard ValueShape.isSpace(cursor.pointee) else { return false }
            cursor += 1
        }
        return true
    }
}
