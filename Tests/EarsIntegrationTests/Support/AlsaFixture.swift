import Foundation
import Synchronization

/// A capture device without a sound card: alsa-lib's `file` plugin reading a
/// FIFO that the test feeds at real time, selected with `ALSA_CONFIG_PATH`
/// (which replaces alsa.conf, hence the inline `null` slave).
final class AlsaFixture: Sendable {
    let directory: String
    let configPath: String
    let fifoPath: String
    private let stopFeeding = Atomic<Bool>(false)
    private let paused = Atomic<Bool>(false)
    private let queue = Mutex<[Data]>([])
    private let fed = Atomic<Int>(0)
    private let droppedBlocks = Atomic<Int>(0)
    /// Whether the feeder drops what the FIFO has no room for (see `init`).
    let dropsWhenFull: Bool

    /// Bytes of FIFO a dropping feeder leaves room for: 0.5 s, about a real
    /// card's buffer (`AlsaMicrophone` asks for 500 ms).
    private static let droppingPipeBytes: Int32 = 16_384
    /// `F_SETPIPE_SZ` (Linux), which Glibc's module does not export.
    private static let setPipeSize: Int32 = 1031

    /// Makes the config and FIFO; `pcmName` is the device name ears is told to open.
    /// With `dropsWhenFull`, the feeder behaves like a microphone whose
    /// reader fell behind: the FIFO holds 0.5 s, and a block it has no room
    /// for is dropped (counted in `blocksDropped`) instead of waited on, so
    /// a stalled reader loses audio for good and real time goes on.
    init(directory: String, pcmName: String = "cap", defineDevice: Bool = true, dropsWhenFull: Bool = false) throws {
        self.directory = directory
        self.dropsWhenFull = dropsWhenFull
        configPath = directory + "/asound.conf"
        fifoPath = directory + "/mic.fifo"
        guard mkfifo(fifoPath, 0o600) == 0 else { throw SpeechError(detail: "mkfifo failed") }
        try writeConfig(pcmName: pcmName, defineDevice: defineDevice)
    }

    /// The environment that points alsa-lib at this fixture.
    var environment: [String: String] { ["ALSA_CONFIG_PATH": configPath] }

    /// (Re)writes the ALSA config; without `defineDevice` the PCM does not exist.
    func writeConfig(pcmName: String = "cap", defineDevice: Bool) throws {
        let text = defineDevice ? """
        pcm.\(pcmName) {
            type file
            slave.pcm { type null }
            file "/dev/null"
            infile "\(fifoPath)"
            format "raw"
        }
        pcm.!default { type plug; slave.pcm "\(pcmName)" }
        """ : "# no capture device defined\n"
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Queues raw S16_LE samples to be played into the FIFO after what is queued.
    func enqueue(_ raw: Data) { queue.withLock { $0.append(raw) } }

    /// 100 ms blocks a dropping feeder could not write (the reader was behind).
    var blocksDropped: Int { droppedBlocks.load(ordering: .relaxed) }

    /// Seconds of audio written into the FIFO so far.
    var secondsFed: Double { Double(fed.load(ordering: .relaxed)) / 32_000 }

    /// Starts a thread that opens the FIFO (blocking until ears opens the
    /// device) and writes 100 ms blocks at real time: queued audio, else silence.
    func startFeeding() {
        let thread = Thread { [self] in
            let fd = open(fifoPath, O_WRONLY)
            guard fd >= 0 else { return }
            defer { close(fd) }
            signal(SIGPIPE, SIG_IGN)
            if dropsWhenFull {
                _ = fcntl(fd, Self.setPipeSize, Self.droppingPipeBytes)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
            let block = 3_200 // 100 ms of S16 mono at 16 kHz
            let silence = Data(count: block)
            var pending = Data()
            var start = Date()
            var blocks = 0
            while !stopFeeding.load(ordering: .relaxed) {
                if paused.load(ordering: .relaxed) {
                    usleep(20_000)
                    start = Date().addingTimeInterval(-Double(blocks) * 0.1)
                    continue
                }
                if pending.isEmpty { pending = queue.withLock { $0.isEmpty ? Data() : $0.removeFirst() } }
                var out = silence
                if !pending.isEmpty {
                    let take = min(block, pending.count)
                    out = pending.prefix(take) + Data(count: block - take)
                    pending = pending.dropFirst(take)
                }
                let written = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written < 0 && dropsWhenFull && errno == EAGAIN {
                    // No room: the block is lost, as a real microphone's would be.
                    droppedBlocks.add(1, ordering: .relaxed)
                } else if written < 0 {
                    return
                } else {
                    fed.add(written, ordering: .relaxed)
                }
                blocks += 1
                let due = start.addingTimeInterval(Double(blocks) * 0.1)
                let wait = due.timeIntervalSinceNow
                if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            }
        }
        thread.start()
    }

    /// Holds the feeder without closing the FIFO: ears' next read blocks,
    /// which is what a wedged sound driver looks like from the audio loop.
    func pause() { paused.store(true, ordering: .relaxed) }

    /// Lets a paused feeder go on (real time restarts from now).
    func resume() { paused.store(false, ordering: .relaxed) }

    /// Stops the feeder (its FIFO closes).
    func stop() { stopFeeding.store(true, ordering: .relaxed) }
}
