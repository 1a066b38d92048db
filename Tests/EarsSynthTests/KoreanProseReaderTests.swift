import Testing
@testable import EarsSynth

@Suite struct KoreanProseReaderTests {
    @Test("a page's Korean sentences: tags, scripts and commands dropped, entities decoded, headings and English left out")
    func sentencesOfAPage() {
        let page = """
            <html><head><style>p { color: red }</style><script>var a = "데비안은 자유 운영체제입니다.";</script></head>
            <body><h2>12.2.3. 위키</h2>
            <p>데비안 &quot;패키지&quot;는 실행 파일과 라이브러리 및 문서를 포함합니다. 디스크에 보관 파일을
            모두 보관해야 하나요?</p><pre>apt-get install 데비안 패키지를 설치하는 명령입니다.</pre>
            <p>Debian is a free operating system for your computer.</p><p>GNU 도구는 데비안 시스템의 핵심 부분입니다!</p>
            </body></html>
            """
        #expect(KoreanProseReader.sentences(fromHTML: page) == [
            "데비안 \"패키지\"는 실행 파일과 라이브러리 및 문서를 포함합니다.",
            "디스크에 보관 파일을 모두 보관해야 하나요?",
            "GNU 도구는 데비안 시스템의 핵심 부분입니다!",
        ])
    }

    @Test("a long sentence is cut to its first words; numeric entities decode; an unknown entity stays")
    func cutsAndEntities() {
        let long = (1...20).map { _ in "데비안은" }.joined(separator: " ") + "."
        #expect(KoreanProseReader.sentences(fromHTML: long).first?.split(separator: " ").count == KoreanProseReader.maximumWords)
        #expect(KoreanProseReader.decodeEntities("&#xD55C;&#44544; &bogus; a&b") == "한글 &bogus; a&b")
    }

    @Test("the Korean Debian FAQ (debian-faq-ko, which make setup installs) gives hundreds of Korean sentences; a missing directory none")
    func theInstalledFAQ() {
        let sentences = KoreanProseReader.sentences()
        #expect(sentences.count > 500, "\\(sentences.count)")
        #expect(Set(sentences).count == sentences.count)
        #expect(KoreanProseReader.sentences(inDirectory: "/nonexistent").isEmpty)
    }
}
