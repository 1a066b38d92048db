// A throwaway measurement of the neural wake head, not part of any target:
// forward-pass time per window, the spotter's cost per embedding, and
// training throughput on random data of realistic size (16 × 96 inputs,
// one positive in ten, a tenth held out for validation).
//
//   N=Sources/EarsNeural
//   swiftc -O -parse-as-library -module-name EarsCore $N/NeuralKernels.swift $N/SeededGenerator.swift \
//       $N/WakeHead.swift $N/HeadTrainer.swift $N/WakeModel.swift $N/WakeModelFile.swift \
//       $N/NeuralWakeSpotter.swift bench/neural_head.swift -o /tmp/neural-head-bench
//   /tmp/neural-head-bench [examples=50000] [epochs=2] [hidden=64 or 128,64; default: 64, 128+64, 32] [threads=1]
import Foundation

@main
enum NeuralHeadBench {
    static func main() {
        let args = CommandLine.arguments
        let trainCount = args.count > 1 ? Int(args[1])! : 50_000
        let epochs = args.count > 2 ? Int(args[2])! : 2
        let hiddenSets: [[Int]] = args.count > 3 ? [args[3].split(separator: ",").map { Int($0)! }] : [[64], [128, 64], [32]]
        let threads = args.count > 4 ? Int(args[4])! : 1

        var g = SeededGenerator(seed: 1)
        for hidden in hiddenSets {
            var head = WakeHead.initialized(hidden: hidden, generator: &g)
            head.featureMean = (0..<96).map { _ in g.gaussian() }
            head.featureScale = (0..<96).map { _ in 0.5 + g.unitFloat() }
            let windows = (0..<64).map { _ in (0..<1536).map { _ in g.gaussian() } }
            var sink: Float = 0
            for w in windows { sink += head.score(window: w) }
            let n = 20_000
            let t0 = now()
            for k in 0..<n { sink += head.score(window: windows[k & 63]) }
            let t1 = now()
            let flat = windows.flatMap { $0 }
            let t2 = now()
            for _ in 0..<(n / 64) { sink += head.scores(windows: flat)[0] }
            let t3 = now()
            print("hidden \(hidden): score(window:) \(String(format: "%.2f", (t1 - t0) / Double(n) * 1e6)) µs/window, batched \(String(format: "%.2f", (t3 - t2) / Double(n) * 1e6)) µs/window, checksum \(sink)")
        }

        // Spotter: 3 phrases of [64].
        do {
            let phrases = (0..<3).map { i -> NeuralWakeSpotter.Phrase in
                .init(name: "p\(i)", head: WakeHead.initialized(generator: &g), threshold: 0.99)
            }
            var spotter = NeuralWakeSpotter(phrases: phrases)
            let embeddings = (0..<100).map { _ in (0..<96).map { _ in g.gaussian() } }
            let n = 20_000
            let t0 = now()
            var count = 0
            for k in 0..<n { count += spotter.push(embeddings[k % 100]).count }
            print("spotter, 3 phrases: \(String(format: "%.2f", (now() - t0) / Double(n) * 1e6)) µs per embedding (\(count) detections)")
        }

        // Training on random data of realistic size.
        let inputs = 1536
        var examples: [WakeExample] = []
        examples.reserveCapacity(trainCount)
        for k in 0..<trainCount {
            let positive = k % 10 == 0
            var w = [Float](repeating: 0, count: inputs)
            for i in 0..<inputs { w[i] = g.gaussian() + (positive && i % 96 < 8 ? 0.3 : 0) }
            examples.append(WakeExample(window: w, label: positive ? 1 : 0))
        }
        let validation = Array(examples.suffix(trainCount / 10))
        let train = Array(examples.prefix(trainCount - trainCount / 10))
        for hidden in hiddenSets {
            var s = HeadTrainer.Settings()
            s.hidden = hidden
            s.epochs = epochs
            s.patience = 0
            s.threads = threads
            let t0 = now()
            let (_, report) = HeadTrainer(settings: s).train(examples: train, validation: validation) { e, n, tl, vl in
                print("  epoch \(e)/\(n) train \(tl) validation \(vl) at \(String(format: "%.1f", now() - t0)) s")
            }
            let rate = Double(train.count * report.epochs.count) / report.seconds
            print("train hidden \(hidden), \(threads) thread(s): \(train.count) examples × \(report.epochs.count) epochs (+\(validation.count) validation each) in \(String(format: "%.1f", report.seconds)) s: \(Int(rate)) example-epochs/s, 30 epochs of 50k ≈ \(String(format: "%.0f", 50_000.0 * 30 / rate)) s; kept epoch \(report.bestEpoch), validation AP \(report.best?.averagePrecision ?? .nan)")
        }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) * 1e-9 }
}
