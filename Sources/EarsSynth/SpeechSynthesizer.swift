#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import Foundation
import Synchronization
import EarsTraining

/// Says a text in a `SynthVoice` and returns 16 kHz mono 16-bit samples, by
/// running the voice's engine as a subprocess and resampling with `sox`
/// through pipes. Nothing is kept: the text goes to the engine on stdin
/// (flite: as its `-t` argument), audio comes back on stdout, except from festival, which
/// can only write a file (its WAV writer seeks): it writes into this
/// synthesizer's private temporary
/// directory (mode 0700, made with `mkdtemp`), and each file is removed as
/// soon as it is read. The directory itself is removed when the synthesizer
/// is released. Engines also get it as `TMPDIR`, so any scratch file they
/// make lands there too.
///
/// Thread-safe: `say` may be called from several threads at once (file names
/// are numbered atomically).
package final class SpeechSynthesizer: Sendable {
    /// The sample rate of every returned clip, in Hz.
    package static let sampleRate = 16_000

    /// The private temporary directory (absolute path), removed in `deinit`.
    package let temporaryDirectory: String
    /// Numbers festival's output files.
    private let fileCounter = Atomic<Int>(0)

    /// Makes the private temporary directory under `TMPDIR` (or /tmp).
    package init() throws(SynthError) {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/ears-synth-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw .temporaryDirectory(path: base, errno: errno) }
        temporaryDirectory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What every engine runs with: the private directory as its temp dir,
    /// and as its config and runtime dirs too, because espeak-ng opens a
    /// PulseAudio client even with `--stdout` or `--voices`, and libpulse
    /// would otherwise make `~/.config/pulse` (with a runtime symlink) and
    /// leave a `pulse-*` directory in the temp dir.
    var scratchEnvironment: [String: String] {
        ["TMPDIR": temporaryDirectory, "XDG_CONFIG_HOME": temporaryDirectory, "XDG_RUNTIME_DIR": temporaryDirectory]
    }

    deinit {
        try? FileManager.default.removeItem(atPath: temporaryDirectory)
    }

    /// `text` said by `voice`: 16 kHz mono samples. Throws when the engine or
    /// sox is missing or fails, or returns audio that cannot be read.
    package func say(_ text: String, voice: SynthVoice) throws(SynthError) -> [Int16] {
        let wav: [UInt8]
        let tool: Tool
        let scratch = scratchEnvironment
        switch voice.engine {
        case .espeak:
            tool = .espeak
            var arguments = ["-v", voice.espeakVoiceArgument, "-s", String(voice.espeakWordsPerMinute)]
            if let pitch = voice.pitch { arguments += ["-p", String(pitch)] }
            wav = try Subprocess.run(tool, arguments + ["--stdout"], input: Array(text.utf8), environment: scratch)
        case .flite:
            tool = .flite
            // flite fills in the WAV sizes before writing, so stdout works as
            // a pipe. The text is an argument: flite reading /dev/stdin hung
            // under a test runner, and -t is its documented way.
            wav = try Subprocess.run(tool, ["-voice", voice.name, "--setf", "duration_stretch=\(Self.decimal(voice.durationStretch))",
                                            "-t", text, "-o", "/dev/stdout"], environment: scratch)
        case .festival:
            return try sayWithFestival([(text, voice)])[0]
        }
        let pcm = try PCMAudio(wav: wav, command: tool.command)
        return try pcm.resampled(to: Self.sampleRate)
    }

    /// How espeak-ng's `voice` (its language; variants say the same
    /// phonemes) would say `word`, in its phoneme mnemonics (`-x`, what
    /// `[[…]]` input takes): "n'A:bu:" for "nabu". Nil for another engine's
    /// voice or an empty answer. Throws when espeak-ng is missing or fails.
    package func espeakPhonemes(of word: String, voice: SynthVoice) throws(SynthError) -> String? {
        guard voice.engine == .espeak else { return nil }
        let out = try Subprocess.run(.espeak, ["-q", "-x", "-v", voice.name], input: Array(word.utf8), environment: scratchEnvironment)
        let phonemes = String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return phonemes.isEmpty || phonemes.contains(" ") ? nil : phonemes
    }

    /// Several texts, each in its voice, in order: festival's in one
    /// festival run (its start-up, 0.3–0.4 s, is most of the cost of a short
    /// clip; a batch of 20 takes about 0.5 s with a diphone voice), the
    /// others one by one. The same audio as `say` would give for each.
    package func say(_ requests: [(text: String, voice: SynthVoice)]) throws(SynthError) -> [[Int16]] {
        let festival = requests.indices.filter { requests[$0].voice.engine == .festival }
        var results = [[Int16]](repeating: [], count: requests.count)
        if !festival.isEmpty {
            for (index, samples) in zip(festival, try sayWithFestival(festival.map { requests[$0] })) {
                results[index] = samples
            }
        }
        for index in requests.indices where requests[index].voice.engine != .festival {
            results[index] = try say(requests[index].text, voice: requests[index].voice)
        }
        return results
    }

    /// Quiet given for a text a voice of another language could not say, in milliseconds.
    static let unsaidMilliseconds = 300

    /// Festival voices in one `festival --pipe` run: a Scheme script on
    /// stdin that says each text into a numbered WAV in the private
    /// directory; each file is read and removed. Festival exits 0 even when a
    /// command fails, so a missing file is the failure signal.
    private func sayWithFestival(_ requests: [(text: String, voice: SynthVoice)]) throws(SynthError) -> [[Int16]] {
        var script = ""
        var files: [String] = []
        var currentVoice: String?
        for (text, voice) in requests {
            // Voice names come from directory names; only plain ones reach Scheme.
            guard voice.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw .toolFailed(command: "festival", status: 1, package: "festvox-\(voice.name)")
            }
            if currentVoice != voice.name {
                script += "(voice_\(voice.name))\n"
                currentVoice = voice.name
            }
            let file = temporaryDirectory + "/\(fileCounter.add(1, ordering: .relaxed).newValue).wav"
            files.append(file)
            script += "(Parameter.set 'Duration_Stretch \(Self.decimal(voice.durationStretch)))\n"
            script += "(utt.save.wave (utt.synth (Utterance Text \"\(Self.schemeEscaped(text))\")) \"\(file)\" 'riff)\n"
        }
        defer { for file in files { try? FileManager.default.removeItem(atPath: file) } }
        _ = try Subprocess.run(.festival, ["--pipe"], input: Array(script.utf8), environment: scratchEnvironment)
        var results: [[Int16]] = []
        for (file, request) in zip(files, requests) {
            guard let data = FileManager.default.contents(atPath: file) else {
                // A speaker of another language reads English by its own
                // rules, and an Italian voice fails on about one fortune in
                // 150: that clip of other speech becomes quiet instead of
                // ending the training. A phrase's voice failing still fails.
                if !SynthVoice.phraseLanguages.contains(request.voice.language) {
                    results.append([Int16](repeating: 0, count: Self.sampleRate * Self.unsaidMilliseconds / 1000))
                    continue
                }
                throw .toolFailed(command: "festival (voice \(request.voice.name))", status: 0, package: "festival")
            }
            results.append(try PCMAudio(wav: [UInt8](data), command: "festival").resampled(to: Self.sampleRate))
        }
        return results
    }

    /// `text` inside a Scheme string literal: backslashes and quotes escaped,
    /// control characters (newlines included) as spaces.
    static func schemeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            default: escaped.append(character.isNewline || character.asciiValue.map { $0 < 32 } == true ? " " : character)
            }
        }
        return escaped
    }

    /// `value` with three decimals, for engine arguments.
    static func decimal(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
