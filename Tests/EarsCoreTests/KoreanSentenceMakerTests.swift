import Testing
@testable import EarsCore
@testable import EarsTraining

private let dictionary = ["가감", "코델리아", "피파", "피파게임", "델리", "바람", "시장", "1루", "a", "가가대소하다하다", "책", "읽다", "불다"]

@Suite struct KoreanSentenceMakerTests {
    @Test("the vocabulary keeps short Hangul words and drops the phrase's words, digits and Latin letters; pieces of a phrase word stay")
    func vocabulary() {
        let words = KoreanSentenceMaker.vocabulary(dictionary, avoiding: "코델리아 피파")
        #expect(words == ["가감", "델리", "바람", "시장", "책", "읽다", "불다"])
    }

    @Test("sentences are distinct, seeded, Hangul with particles and endings, and never hold a phrase word, even across a space")
    func sentences() {
        // "피" and "파" alone could meet across a space as "피 파": such a sentence is dropped.
        let vocabulary = KoreanSentenceMaker.vocabulary(dictionary, avoiding: "코델리아 피파") + ["피", "파"]
        let first = KoreanSentenceMaker.sentences(from: vocabulary, avoiding: "코델리아 피파", count: 300, seed: 9)
        #expect(first == KoreanSentenceMaker.sentences(from: vocabulary, avoiding: "코델리아 피파", count: 300, seed: 9))
        #expect(first != KoreanSentenceMaker.sentences(from: vocabulary, avoiding: "코델리아 피파", count: 300, seed: 10))
        #expect(first.count == 300 && Set(first).count == 300)
        for sentence in first {
            let joined = sentence.filter { $0 != " " }
            #expect(!joined.contains("피파") && !joined.contains("코델리아"), "\(sentence)")
            let words = sentence.split(separator: " ")
            #expect(KoreanSentenceMaker.wordsPerSentence.contains(words.count))
            #expect(sentence.dropLast().allSatisfy { $0 == " " || KoreanSentenceMaker.isHangulSyllable($0) }, "\(sentence)")
            #expect([".", "?", "!"].contains(sentence.last!))
        }
        #expect(first.contains { sentence in KoreanSentenceMaker.particles.contains { sentence.contains($0 + " ") } })
    }

    @Test("no vocabulary or no count gives no sentence")
    func none() {
        #expect(KoreanSentenceMaker.sentences(from: [], avoiding: "코델리아", count: 10, seed: 1).isEmpty)
        #expect(KoreanSentenceMaker.sentences(from: ["책"], avoiding: "코델리아", count: 0, seed: 1).isEmpty)
    }
}
