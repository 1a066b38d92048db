import Testing
@testable import EarsTools

/// The Korean sentences `ears train` reads for a Korean phrase's other speech.
@Suite struct NativeSpeechTests {
    @Test("a Korean phrase gets Korean sentences from hunspell-ko's words, none holding a phrase word; an English one needs none")
    func koreanSentences() throws {
        let sentences = try PhraseTrainer.nativeSpeech(phrase: "코델리아 피파", language: "ko", seed: 1)
        #expect(sentences.count == PhraseTrainer.nativeSentenceCount)
        #expect(!sentences.contains { $0.filter { $0 != " " }.contains("피파") || $0.contains("코델리아") })
        #expect(try PhraseTrainer.nativeSpeech(phrase: "hey cordelia", language: "en", seed: 1, dictionary: "/nonexistent").isEmpty)
    }

    @Test("without the word list a Korean phrase is refused with a sentence naming the file and the install command")
    func missingWordList() {
        do {
            _ = try PhraseTrainer.nativeSpeech(phrase: "코델리아 피파", language: "ko", seed: 1, dictionary: "/nonexistent/ko.dic")
            Issue.record("a Korean phrase trained without Korean other speech")
        } catch {
            #expect(error.sentence.contains("/nonexistent/ko.dic") && error.sentence.contains("sudo apt-get install hunspell-ko"),
                    "\(error.sentence)")
        }
    }

    @Test("an English phrase's heads are trained behind the suppressor, a Korean one's on audio as captured")
    func denoisingIsChosenPerLanguage() {
        #expect(PhraseTrainer.denoiseDecibels(language: "en") == PhraseTrainer.denoiseDecibels)
        #expect(PhraseTrainer.denoiseDecibels(language: "ko") == nil)
    }
}
