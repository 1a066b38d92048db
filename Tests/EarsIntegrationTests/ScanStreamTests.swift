import Foundation
import Testing

/// `ears scan -` and `ears scan FIFO`: audio from a pipe, as `arecord … | ears scan -` sends it.
@Suite(.serialized) struct ScanStreamTests {
    /// Runs a shell pipeline and returns its exit status, stdout and stderr.
    private func shell(_ script: String) throws -> CommandResult {
        try runCommand("/bin/sh", ["-c", script])
    }

    private func wakeCount(_ output: String) -> Int { Speech.events(output, "wake").count }

    @Test("a WAV stream on standard input is heard like the same file")
    func wavOnStandardInput() throws {
        let dir = try scratchDirectory("scan-stdin-wav")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, what time is it", at: dir + "/call.wav")
        // sox writes the WAV to a pipe, so its header cannot carry real sizes, like arecord's.
        let result = try shell("sox '\(dir)/call.wav' -t wav - | '\(earsBinary)' scan - --json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(wakeCount(result.stdout) == 1, "\(result.stdout)")
        #expect(Speech.events(result.stdout, "wake").first?["file"] as? String == "-")
    }

    @Test("raw S16_LE 16 kHz mono on standard input is heard, and 44.1 kHz stereo WAV is converted")
    func rawAndConvertedStreams() throws {
        let dir = try scratchDirectory("scan-stdin-raw")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, turn on the lights", at: dir + "/call.wav")
        let raw = try shell("sox '\(dir)/call.wav' -t raw -r 16000 -c 1 -e signed -b 16 - | '\(earsBinary)' scan - --json")
        #expect(raw.status == 0, "\(raw.stderr)")
        #expect(wakeCount(raw.stdout) == 1, "\(raw.stdout)")
        let stereo = try shell("sox '\(dir)/call.wav' -r 44100 -c 2 -t wav - | '\(earsBinary)' scan - --json")
        #expect(stereo.status == 0, "\(stereo.stderr)")
        #expect(wakeCount(stereo.stdout) == 1, "\(stereo.stdout)")
    }

    @Test("an 8-bit WAV stream fails with a sentence saying how to convert it")
    func unsupportedStreamIsRefused() throws {
        let dir = try scratchDirectory("scan-stdin-8bit")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia", at: dir + "/call.wav")
        let result = try shell("sox '\(dir)/call.wav' -b 8 -t wav - | '\(earsBinary)' scan - --json")
        #expect(result.status == 1)
        #expect(result.stderr.contains("16-bit") && result.stderr.contains("sox"), "\(result.stderr)")
    }

    @Test("scanning a FIFO says it waits for a writer, then hears what the writer sends")
    func fifoWaitsForAWriterAndSaysSo() throws {
        let dir = try scratchDirectory("scan-fifo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Speech.wav("hey cordelia, what's the weather", at: dir + "/call.wav")
        #expect(mkfifo(dir + "/mic.fifo", 0o600) == 0)
        // The writer starts only after ears has said what it waits for.
        let script = """
        '\(earsBinary)' scan '\(dir)/mic.fifo' --json 2>'\(dir)/err' & pid=$!
        for i in $(seq 1 100); do grep -q 'waiting for a writer' '\(dir)/err' 2>/dev/null && break; sleep 0.1; done
        cat '\(dir)/call.wav' > '\(dir)/mic.fifo'
        wait $pid; status=$?; cat '\(dir)/err' >&2; exit $status
        """
        let result = try shell(script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("waiting for a writer on the FIFO"), "\(result.stderr)")
        #expect(wakeCount(result.stdout) == 1, "\(result.stdout)")
    }

    @Test("listen --input refuses a FIFO at once with a sentence, instead of sitting in opening")
    func listenRefusesAFifo() throws {
        let dir = try scratchDirectory("listen-fifo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/mic.fifo", 0o600) == 0)
        let result = try runCommand(earsBinary, ["listen", "--input", dir + "/mic.fifo", "--runtime-dir", dir + "/run"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is a FIFO") && result.stderr.contains("ears scan -"), "\(result.stderr)")
    }
}
