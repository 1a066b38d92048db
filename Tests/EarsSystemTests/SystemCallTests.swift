import EarsSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// The one system-call funnel and the one library loader, on real descriptors
/// and the real dynamic linker.
@Suite struct SystemCallTests {
    @Test("writeAll delivers every byte through a pipe smaller than the message, and read gets them back in pieces")
    func writeAllAndRead() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let message = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let readEnd = ends[0]
        let reader = Thread {
            var got: [UInt8] = []
            while let piece = try? SystemCall.read(upTo: 4_096, from: readEnd, path: "test pipe"), !piece.isEmpty { got += piece }
            received.withLock { $0 = got }
        }
        reader.start()
        try SystemCall.writeAll(message, to: ends[1], path: "test pipe")
        close(ends[1])
        let deadline = Date().addingTimeInterval(10)
        while received.withLock({ $0 == nil }) && Date() < deadline { usleep(10_000) }
        close(ends[0])
        #expect(received.withLock { $0 } == message)
    }

    @Test("sleep sleeps in full though a signal interrupts it")
    func sleepThroughSignal() {
        // A handler without SA_RESTART: the signal makes nanosleep return EINTR early.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR2, &action, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }
        let sleeper = pthread_self()
        let signaller = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            pthread_kill(sleeper, SIGUSR2)
        }
        let started = ContinuousClock.now
        signaller.start()
        SystemCall.sleep(seconds: 0.3)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }

    @Test("a write to a pipe nobody reads fails with EPIPE, named with the call and the path")
    func brokenPipe() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(throws: SystemCallError(call: "write", path: "the hook's stdin", code: EPIPE)) {
            try SystemCall.writeAll([1, 2, 3], to: ends[1], path: "the hook's stdin")
        }
        #expect(SystemCallError(call: "write", path: "x", code: EPIPE).sentence == "write on x: Broken pipe")
    }

    @Test("the loader skips paths that are not there, opens the first that loads and finds its symbols")
    func loader() throws {
        let library = try DynamicLibrary.open(firstOf: ["/nonexistent/libc.so.6", "libc.so.6"])
        #expect(library.path == "libc.so.6")
        typealias GetPID = @convention(c) () -> Int32
        #expect(try library.symbol("getpid", as: GetPID.self)() == getpid())
        #expect(throws: DynamicLibrary.MissingSymbol.self) { try library.symbol("no_such_symbol_here", as: GetPID.self) }
    }

    @Test("when nothing loads, the error lists every place looked, with the linker's reason for a file that would not load")
    func notFound() throws {
        let notALibrary = FileManager.default.temporaryDirectory.appendingPathComponent("ears-not-a-library-\(getpid()).so").path
        FileManager.default.createFile(atPath: notALibrary, contents: Data("text".utf8))
        defer { try? FileManager.default.removeItem(atPath: notALibrary) }
        do {
            _ = try DynamicLibrary.open(firstOf: ["/nonexistent/libx.so", notALibrary])
            Issue.record("a text file loaded as a library")
        } catch {
            #expect(error.tried.count == 2)
            #expect(error.tried[0] == "/nonexistent/libx.so")
            #expect(error.tried[1].hasPrefix(notALibrary + " ("), "\(error.tried[1])")
        }
    }
}

private let received = Mutex<[UInt8]?>(nil)
