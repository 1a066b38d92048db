// ears-frontend-timing: CPU seconds per audio second of the openWakeWord
// front end (OpenWakeWordEmbedder), streaming in the daemon's 100 ms chunks
// and over whole clips. Not a test; run it on a release build:
//
//   swift build -c release --build-path .build --product ears-frontend-timing
//   .build/release/ears-frontend-timing [seconds]
//
// The audio is synthetic (a deterministic mix of noise and tones): the models
// have fixed shapes, so their cost does not depend on what is said.
#if canImport(Glibc)
import Glibc
#endif
import EarsCore
import EarsONNX
import Foundation

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func wallSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

let seconds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 120 : 120
var state: UInt32 = 12345
let samples: [Int16] = (0..<(seconds * 16_000)).map { n in
    state = state &* 1_664_525 &+ 1_013_904_223
    let noise = Double(Int32(bitPattern: state) >> 20) / 2048
    let tone = sin(Double(n) * 2 * .pi * (200 + Double((n / 16_000) % 7) * 90) / 16_000)
    return Int16(max(-32_000, min(32_000, 3_000 * noise + 6_000 * tone * (n % 24_000 < 12_000 ? 1 : 0.05))))
}

do {
    let loadCPU = cpuSeconds(), loadWall = wallSeconds()
    let embedder = try OpenWakeWordEmbedder.locate()
    print("load: \(String(format: "%.3f", cpuSeconds() - loadCPU)) CPU s, \(String(format: "%.3f", wallSeconds() - loadWall)) s wall (\(embedder.frontEndVersion))")

    // Warm-up: the first runs allocate.
    _ = try embedder.embeddings(ofClip: Array(samples.prefix(32_000)))
    embedder.reset()

    let audio = Double(samples.count) / 16_000
    let streamCPU = cpuSeconds(), streamWall = wallSeconds()
    var count = 0
    var offset = 0
    while offset < samples.count {
        let end = min(offset + AudioFormat.chunkSamples, samples.count)
        count += try embedder.feed(Array(samples[offset..<end])).count
        offset = end
    }
    let streamed = cpuSeconds() - streamCPU
    print("streaming, \(AudioFormat.chunkSamples)-sample chunks: \(count) embeddings for \(audio) s of audio, "
          + "\(String(format: "%.4f", streamed / audio)) CPU s per audio s (\(String(format: "%.2f", streamed)) CPU s, "
          + "\(String(format: "%.2f", wallSeconds() - streamWall)) s wall)")

    // Training: 2 s clips, the size of a wake-phrase example.
    let clipCPU = cpuSeconds()
    var clips = 0
    for start in stride(from: 0, to: samples.count - 32_000, by: 32_000) {
        clips += try embedder.embeddings(ofClip: Array(samples[start..<(start + 32_000)])).count
    }
    let clipped = cpuSeconds() - clipCPU
    let clipAudio = Double(samples.count / 32_000 - (samples.count % 32_000 == 0 ? 1 : 0)) * 2
    print("clips of 2 s (embeddings(ofClip:)): \(clips) embeddings, "
          + "\(String(format: "%.4f", clipped / clipAudio)) CPU s per audio s")
} catch {
    print("ears-frontend-timing: \(error.sentence)")
    exit(1)
}
