import NIOCore

/// Runs a connection's task on its channel's event loop as a `TaskExecutor`, so that awaiting a nonisolated async
/// function (every middleware, route and store call) continues on the spot instead of going through the loop's queue.
///
/// NIO's takeover of the global executor (`BridgeServerApp.runConcurrencyOnEventLoops`) runs each job as if on the
/// loop's *serial* executor; Swift then treats every call into nonisolated async code as a switch to the generic
/// executor and enqueues the task again: 34 queued jobs per authorize request (counted with `perf stat` on
/// `swift_job_run`). With the loop as the task's preferred task executor, the runtime knows the generic code may run
/// where it is (SE-0417), and a request is a few jobs: its arrival, and the resumptions after a real wait.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
