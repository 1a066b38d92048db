import Testing
@testable import EarsConfig
@testable import EarsEngines
@testable import EarsPhonetics

/// The verifier's competitors (`DetectorFactory.soundAlikes`) on Debian's
/// PocketSphinx dictionary, as `ears listen` and `ears scan` build them.
@Suite struct VerifierCompetitorTests {
    private static func config(_ phrases: [String]) -> EarsConfig {
        var config = EarsConfig()
        config.phrases = phrases.map { WakePhrase(text: $0) }
        return config
    }

    private func competitors(_ phrases: [String]) -> [String: [String]] {
        let config = Self.config(phrases)
        return DetectorFactory.soundAlikes(for: config, pronouncer: DetectorFactory.pronouncer(for: config))
    }

    @Test("okay nabu meets competitors that change nabu, though its cheapest neighbours change okay")
    func aNameAfterAShortWordHasCompetitors() throws {
        let alikes = try #require(competitors(["okay nabu"])["okay nabu"])
        #expect(alikes.count == DetectorFactory.competitorsPerPhrase)
        #expect(alikes.contains("okay not"))
        for alike in alikes {
            #expect(alike.hasPrefix("okay ") && alike != "okay nabu", "\(alike) keeps okay and changes nabu")
        }
    }

    @Test("every competitor costs at least the minimum and is not the phrase as the acoustic model hears it")
    func competitorsAreFarEnough() throws {
        let generator = DetectorFactory.soundAlikeGenerator(pronouncer: DetectorFactory.pronouncer(for: Self.config(["okay nabu"])))
        let all = competitors(["okay nabu", "hey jarvis"])
        for (phrase, alikes) in all {
            let costs = Dictionary(generator.soundAlikes(of: phrase, count: DetectorFactory.neighboursConsidered)
                .map { ($0.text, $0.cost) }, uniquingKeysWith: min)
            for alike in alikes {
                let cost = try #require(costs[alike])
                #expect(cost >= DetectorFactory.minimumCompetitorCost, "\(alike) costs \(cost)")
            }
        }
    }
}
