import EarsNeural
import EarsTraining
import Foundation

/// For whoever tunes the trainer's head, not for users: the front end's
/// embeddings of one training run's clips, kept in a directory the developer
/// names (`EARS_TRAIN_FEATURES=DIR`), so that a change to how the heads are
/// trained (`HeadTrainer`, the labels, the ensemble, the threshold rule) can
/// be measured in minutes instead of synthesizing and hearing the same corpus
/// again for most of an hour.
///
/// What is kept is synthesized speech's embeddings (96 numbers per 80 ms) and
/// each clip's role, split, noise and SNR: no audio, and never anything a
/// microphone heard (`ears listen` never reads or writes this). A cache
/// is keyed by phrase, seed and budget only: it is the developer's to remove
/// when the plan, the synthesizers or the front end change. With a cache the
/// run has no audio, so the comparison with the acoustic route is skipped.
struct FeatureCache {
    /// The environment variable naming the directory.
    static let environmentVariable = "EARS_TRAIN_FEATURES"

    /// The metadata file's path; the embeddings are beside it (`.f32`).
    let metadataPath: String
    /// The embeddings' path: every clip's embeddings, float32 little-endian, in order.
    var embeddingsPath: String { metadataPath + ".f32" }

    /// The cache for one run in `directory`, named by phrase, seed and budget.
    init(directory: String, phrase: String, seed: UInt64, minutes: Double) {
        // Named as the phrase's model is (`hey-cordelia`), so two spellings that fold alike share a cache.
        let stem = PhraseModelDirectory.fileName(forPhrase: phrase).dropLast(PhraseModelDirectory.fileExtension.count)
        metadataPath = (directory as NSString).appendingPathComponent("\(stem)-seed\(seed)-\(minutes)min.features.json")
    }

    /// One clip's description (its embeddings are in the `.f32` file).
    private struct Entry: Codable {
        var role: String
        var split: String
        var noise: String?
        var signalToNoiseDecibels: Double
        var speechEndSample: Int?
        var seconds: Double
        var minedOnly: Bool
        var steps: Int
        var dimension: Int
    }

    /// The cached clips, or nil when there is no cache yet (or it is unreadable).
    func load() -> [ClipFeatures]? {
        guard let metadata = FileManager.default.contents(atPath: metadataPath),
              let entries = try? JSONDecoder().decode([Entry].self, from: metadata),
              let blob = FileManager.default.contents(atPath: embeddingsPath) else { return nil }
        guard blob.count == entries.reduce(0, { $0 + $1.steps * $1.dimension }) * MemoryLayout<Float>.size else { return nil }
        let floats = blob.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let roles = Dictionary(uniqueKeysWithValues: ([TrainingClip.Role.positive]
            + TrainingClip.NegativeKind.allCases.map { .negative($0) }).map { ($0.name, $0) })
        var clips: [ClipFeatures] = []
        clips.reserveCapacity(entries.count)
        var offset = 0
        for entry in entries {
            guard let role = roles[entry.role], let split = TrainingClip.Split(rawValue: entry.split) else { return nil }
            var augmentation = Augmentation()
            augmentation.noise = entry.noise.flatMap(Augmentation.NoiseKind.init(rawValue:))
            augmentation.signalToNoiseDecibels = entry.signalToNoiseDecibels
            var embeddings: [[Float]] = []
            embeddings.reserveCapacity(entry.steps)
            for _ in 0..<entry.steps {
                embeddings.append(Array(floats[offset..<(offset + entry.dimension)]))
                offset += entry.dimension
            }
            clips.append(ClipFeatures(role: role, split: split, augmentation: augmentation, embeddings: embeddings,
                                      speechEndSample: entry.speechEndSample, seconds: entry.seconds, minedOnly: entry.minedOnly))
        }
        return clips
    }

    /// Writes `clips` (embeddings first, then the metadata, each by rename).
    func save(_ clips: [ClipFeatures]) throws {
        var blob = Data()
        var entries: [Entry] = []
        for clip in clips {
            let dimension = clip.embeddings.first?.count ?? 0
            for embedding in clip.embeddings { embedding.withUnsafeBytes { blob.append(contentsOf: $0) } }
            entries.append(Entry(role: clip.role.name, split: clip.split.rawValue, noise: clip.augmentation.noise?.rawValue,
                                 signalToNoiseDecibels: clip.augmentation.signalToNoiseDecibels,
                                 speechEndSample: clip.speechEndSample, seconds: clip.seconds, minedOnly: clip.minedOnly,
                                 steps: clip.embeddings.count, dimension: dimension))
        }
        try FileManager.default.createDirectory(atPath: (metadataPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try blob.write(to: URL(fileURLWithPath: embeddingsPath), options: .atomic)
        try JSONEncoder().encode(entries).write(to: URL(fileURLWithPath: metadataPath), options: .atomic)
    }
}
