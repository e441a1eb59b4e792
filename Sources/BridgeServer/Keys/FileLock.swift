import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory lock (flock(2)) on a sidecar file, held while the key file is read and possibly written.
struct FileLock {
    let descriptor: Int32

    init(path: String) throws(ConfigurationError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SigningKeyFile.problem("cannot open the lock file \(path): errno \(errno)")
        }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            throw SigningKeyFile.problem("cannot lock \(path): errno \(errno)")
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
