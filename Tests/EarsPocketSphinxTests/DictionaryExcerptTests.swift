import Testing
import EarsCore
@testable import EarsPocketSphinx

@Suite struct DictionaryExcerptTests {
    @Test("an excerpt keeps each wanted word's first pronunciation and nothing else")
    func parsing() {
        let text = """
        # a comment naming cordelia
        banana B AH N AE N AH
        cordelia K AO R D IY L Y AH
        cordelia(2) K AO R D IY L IY AH
        Hey\tHH EY
        """
        let excerpt = DictionaryExcerpt(text: text, words: ["cordelia", "hey", "nowhere"])
        #expect(excerpt.phones == ["cordelia": ["K", "AO", "R", "D", "IY", "L", "Y", "AH"], "hey": ["HH", "EY"]])
        #expect(DictionaryExcerpt(text: text, words: []).phones.isEmpty)
    }

    @Test("asked for alternates, an excerpt also keeps the wanted words' other pronunciations, wherever the file puts them")
    func alternates() {
        let text = """
        cordelia K AO R D IY L Y AH
        cordelia's K AO R D IY L Y AH Z
        cordelia(2) K AO R D IY L IY AH
        hey HH EY
        ghost(2) G OW S T
        """
        let excerpt = DictionaryExcerpt(text: text, words: ["cordelia", "hey", "ghost"], alternates: true)
        #expect(excerpt.phones == ["cordelia": ["K", "AO", "R", "D", "IY", "L", "Y", "AH"], "hey": ["HH", "EY"]])
        #expect(excerpt.alternates == [DictionaryExcerpt.Alternate(name: "cordelia(2)", phones: ["K", "AO", "R", "D", "IY", "L", "IY", "AH"])])
        #expect(DictionaryExcerpt(text: text, words: ["cordelia"]).alternates.isEmpty)
        #expect(DictionaryExcerpt.alternateBase("jarvis(2)") == "jarvis")
        #expect(DictionaryExcerpt.alternateBase("jarvis") == nil)
        #expect(DictionaryExcerpt.alternateBase("(2)") == nil)
    }

    @Test("a missing dictionary file is an error that names it and the install command")
    func missingFile() {
        #expect(throws: TranscriberError.self) { try DictionaryExcerpt(path: "/nonexistent/en-us.dict", words: ["hey"]) }
        do {
            _ = try DictionaryExcerpt(path: "/nonexistent/en-us.dict", words: ["hey"])
        } catch {
            #expect(error.sentence.contains("/nonexistent/en-us.dict") && error.sentence.contains("apt-get install pocketsphinx-en-us"))
        }
    }

    @Test("a spotter's decoder knows its phrases' words as the full dictionary says them, and no other word")
    func leanSpotter() throws {
        let model = try PocketSphinxModel.locate(in: nil)
        let spotter = try PocketSphinxSpotter(model: model, phrases: ["hey cordelia"], threshold: 1e-30)
        let full = try PocketSphinxDecoder(model: model, arguments: [])
        #expect(spotter.engine.dictionaryPhones(of: "cordelia") == full.dictionaryPhones(of: "cordelia"))
        #expect(spotter.engine.dictionaryPhones(of: "hey") == full.dictionaryPhones(of: "hey"))
        #expect(full.dictionaryPhones(of: "banana") != nil)
        #expect(spotter.engine.dictionaryPhones(of: "banana") == nil)
    }
}
