import BridgeStore
/// A first-come first-served lock for async code. SQLiteNIO runs every statement as its own job, so without this
/// two tasks' statements could interleave inside one `BEGIN … COMMIT` (and one's ROLLBACK undo the other's work).
actor AsyncSerialLock {
    private var isHeld = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !isHeld {
            isHeld = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the lock straight to the next waiter, so no newcomer can overtake it.
    func release() {
        if waiters.isEmpty {
            isHeld = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
