import Testing
@testable import EarsCore
@testable import EarsPhonetics
@testable import EarsConfig

@Suite struct PhraseLimitsTests {
    private func phraseLines(_ count: Int) -> String {
        "[wake]\n" + (0..<count).map { "phrase = hey word\($0)\n" }.joined()
    }

    @Test("64 phrases are accepted; the 65th is refused at its line with a sentence")
    func sixtyFivePhrasesAreRefused() throws {
        #expect(try ConfigParser.parse(phraseLines(PhraseLimits.maximumForms), file: "f").phrases.count == 64)
        do {
            _ = try ConfigParser.parse(phraseLines(PhraseLimits.maximumForms + 1), file: "f")
            Issue.record("65 phrases were accepted")
        } catch {
            #expect(error.line == 66)
            #expect(error.message.contains("at most 64 are allowed"))
        }
    }

    @Test("aliases count toward the 64")
    func aliasesCount() {
        let aliases = (0..<64).map { "alias \($0)" }.joined(separator: ", ")
        #expect(throws: ConfigError.self) { try ConfigParser.parse("[wake]\nphrase = hey | | \(aliases)\n", file: "f") }
    }

    @Test("a phrase or alias of 65 characters is refused; 64 is accepted")
    func longPhrasesAreRefused() throws {
        let sixtyFour = String(repeating: "a", count: 64)
        #expect(try ConfigParser.parse("[wake]\nphrase = \(sixtyFour)\n", file: "f").phrases.map(\.text) == [sixtyFour])
        for text in ["[wake]\nphrase = \(sixtyFour)b\n", "[wake]\nphrase = hey | | \(sixtyFour)b\n"] {
            do {
                _ = try ConfigParser.parse(text, file: "f")
                Issue.record("a 65-character form was accepted")
            } catch {
                #expect(error.line == 2)
                #expect(error.message.contains("65 characters long"))
            }
        }
    }

    @Test("the check over a whole list (for --phrase flags) finds the same problems")
    func wholeListCheck() {
        #expect(PhraseLimits.problem(in: (0..<64).map { WakePhrase(text: "p\($0)") }) == nil)
        #expect(PhraseLimits.problem(in: (0..<65).map { WakePhrase(text: "p\($0)") }) != nil)
        #expect(PhraseLimits.problem(in: [WakePhrase(text: String(repeating: "가", count: 65))]) != nil)
    }
}
