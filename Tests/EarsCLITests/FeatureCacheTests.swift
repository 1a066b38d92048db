import Foundation
import Testing
@testable import EarsTools
@testable import EarsTraining

/// The developer's cache of a training run's embeddings gives back what it
/// was given, and refuses what does not match.
@Suite struct FeatureCacheTests {
    static func directory() -> String {
        let path = NSTemporaryDirectory() + "ears-feature-cache-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aSavedRunLoadsBackClipForClip() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var noisy = Augmentation.none
        noisy.noise = .babble
        noisy.signalToNoiseDecibels = 7.5
        let clips = [
            ClipFeatures(role: .positive, split: .train, augmentation: noisy,
                         embeddings: [[1, 2, 3], [4, 5, 6]], speechEndSample: 16_000, seconds: 2.5),
            ClipFeatures(role: .negative(.soundAlike), split: .heldOut, augmentation: .none,
                         embeddings: [[-1, 0.5, 9]], speechEndSample: nil, seconds: 1, minedOnly: true),
        ]
        let cache = FeatureCache(directory: dir, phrase: "hey cordelia", seed: 4, minutes: 8)
        #expect(cache.load() == nil, "nothing before the first save")
        try cache.save(clips)
        let loaded = try #require(cache.load())
        #expect(loaded.count == 2)
        #expect(loaded.map(\.embeddings) == clips.map(\.embeddings))
        #expect(loaded.map(\.role) == clips.map(\.role) && loaded.map(\.split) == clips.map(\.split))
        #expect(loaded.map(\.speechEndSample) == [16_000, nil] && loaded.map(\.minedOnly) == [false, true])
        #expect(loaded[0].augmentation.noise == .babble && loaded[0].augmentation.signalToNoiseDecibels == 7.5)
        #expect(loaded[1].augmentation.noise == nil)
    }

    @Test func aCacheWhoseEmbeddingsDoNotMatchItsListIsNotUsed() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = FeatureCache(directory: dir, phrase: "alexa", seed: 1, minutes: 8)
        try cache.save([ClipFeatures(role: .positive, split: .train, augmentation: .none,
                                     embeddings: [[1, 2]], speechEndSample: 100, seconds: 1)])
        try Data([0, 0, 0]).write(to: URL(fileURLWithPath: cache.embeddingsPath))
        #expect(cache.load() == nil)
    }
}
