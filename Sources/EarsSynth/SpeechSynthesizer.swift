#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import Foundation
import Synchronization

/// Says a text in a `SynthVoice` and returns 16 kHz mono 16-bit samples, by
/// running the voice's engine as a subprocess and resampling with `sox`
/// through pipes. Nothing is kept: the text goes to the engine on stdin,
/// audio comes back on stdout, except festival's `text2wave`, which can only
/// write a file: it writes into this synthesizer's private temporary
/// directory (mode 0700, made with `mkdtemp`), and each file is removed as
/// soon as it is read. The directory itself is removed when the synthesizer
/// is released. Engines also get it as `TMPDIR`, so any scratch file they
/// make lands there too.
///
/// Thread-safe: `say` may be called from several threads at once (file names
/// are numbered atomically).
public final class SpeechSynthesizer: Sendable {
    /// The sample rate of every returned clip, in Hz.
    public static let sampleRate = 16_000

    /// The private temporary directory (absolute path), removed in `deinit`.
    public let temporaryDirectory: String
    /// Numbers festival's output files.
    private let fileCounter = Atomic<Int>(0)

    /// Makes the private temporary directory under `TMPDIR` (or /tmp).
    public init() throws(SynthError) {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/ears-synth-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw .temporaryDirectory(path: base, errno: errno) }
        temporaryDirectory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: temporaryDirectory)
    }

    /// `text` said by `voice`: 16 kHz mono samples. Throws when the engine or
    /// sox is missing or fails, or returns audio that cannot be read.
    public func say(_ text: String, voice: SynthVoice) throws(SynthError) -> [Int16] {
        let wav: [UInt8]
        let tool: Tool
        let scratch = ["TMPDIR": temporaryDirectory]
        switch voice.engine {
        case .espeak:
            tool = .espeak
            var arguments = ["-v", voice.espeakVoiceArgument, "-s", String(voice.espeakWordsPerMinute)]
            if let pitch = voice.pitch { arguments += ["-p", String(pitch)] }
            wav = try Subprocess.run(tool, arguments + ["--stdout"], input: Array(text.utf8), environment: scratch)
        case .flite:
            tool = .flite
            // flite fills in the WAV sizes before writing, so stdout works as a pipe.
            wav = try Subprocess.run(tool, ["-voice", voice.name, "--setf", "duration_stretch=\(Self.decimal(voice.durationStretch))",
                                            "-t", text, "-o", "/dev/stdout"], environment: scratch)
        case .festival:
            tool = .text2wave
            // text2wave cannot write a WAV to a pipe (it seeks), hence the private file.
            let file = temporaryDirectory + "/\(fileCounter.add(1, ordering: .relaxed).newValue).wav"
            defer { try? FileManager.default.removeItem(atPath: file) }
            _ = try Subprocess.run(tool, ["-eval", "(voice_\(voice.name))",
                                          "-eval", "(Parameter.set 'Duration_Stretch \(Self.decimal(voice.durationStretch)))",
                                          "-o", file], input: Array(text.utf8), environment: scratch)
            guard let data = FileManager.default.contents(atPath: file) else {
                throw .badAudio(command: tool.command, detail: "no output file")
            }
            wav = [UInt8](data)
        }
        let pcm = try PCMAudio(wav: wav, command: tool.command)
        return try pcm.resampled(to: Self.sampleRate)
    }

    /// `value` with three decimals, for engine arguments.
    static func decimal(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
