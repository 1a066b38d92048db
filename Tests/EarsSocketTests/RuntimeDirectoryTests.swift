import EarsSocket
import Foundation
import Glibc
import Testing

/// The runtime-directory rule (issue 12, defect 1): only its owner may write
/// to the directory that holds the sockets, and creating it follows no path.
@Suite struct RuntimeDirectoryTests {
    @Test("a group-writable runtime directory is refused with the chmod that fixes it")
    func groupWritableIsRefused() throws {
        let dir = try scratch("group-writable")
        defer { remove(dir) }
        chmod(dir, 0o770)
        let error = try #require(throws: SocketError.self) { try RuntimeDirectory.prepare(dir) }
        #expect(error == .unsafeDirectory(path: dir, problem: .writableByOthers(mode: 0o770)))
        #expect(error.description.contains("run `chmod g-w,o-w \(dir)`"), "\(error)")
        #expect(error.description.contains("mode 0770"), "\(error)")
    }

    @Test("an other-writable runtime directory is refused, even with the sticky bit")
    func otherWritableIsRefused() throws {
        let dir = try scratch("other-writable")
        defer { remove(dir) }
        chmod(dir, 0o1757)
        #expect(throws: SocketError.unsafeDirectory(path: dir, problem: .writableByOthers(mode: 0o1757))) {
            try RuntimeDirectory.prepare(dir)
        }
    }

    @Test("a directory writable by its owner alone is accepted and left as it is")
    func ownerWritableIsAccepted() throws {
        let dir = try scratch("owner-writable")
        defer { remove(dir) }
        chmod(dir, 0o755)
        try RuntimeDirectory.prepare(dir)
        #expect(try mode(dir) == 0o755)
    }

    @Test("a symbolic link in the directory's place is refused, not followed")
    func symbolicLinkIsRefused() throws {
        let dir = try scratch("symlink")
        defer { remove(dir) }
        let link = dir + "/run"
        symlink(dir, link)
        #expect(throws: SocketError.unsafeDirectory(path: link, problem: .symbolicLink)) {
            try RuntimeDirectory.prepare(link)
        }
    }

    @Test("a missing directory is created 0700, or 0710 with the socket group")
    func missingIsCreatedPrivate() throws {
        let dir = try scratch("create")
        defer { remove(dir) }
        try RuntimeDirectory.prepare(dir + "/private")
        #expect(try mode(dir + "/private") == 0o700)
        // As root the group can be any; as anyone else, only one's own.
        let group = getuid() == 0 ? gid_t(65534) : getegid()
        try RuntimeDirectory.prepare(dir + "/shared", groupID: group)
        #expect(try mode(dir + "/shared") == 0o710)
        #expect(try status(dir + "/shared").st_gid == group)
    }

    @Test("a directory of another user is refused with a sentence naming both uids")
    func foreignOwnerIsRefused() throws {
        var status = stat()
        status.st_mode = S_IFDIR | 0o700
        status.st_uid = 4242
        let problem = RuntimeDirectory.problem(with: status, userID: 1000)
        #expect(problem == .foreignOwner(owner: 4242, expected: 1000))
        let text = SocketError.unsafeDirectory(path: "/run/x", problem: problem!).description
        #expect(text.contains("uid 4242") && text.contains("chown 1000 /run/x"), "\(text)")
        // Root's directories are fine for anyone (systemd's RuntimeDirectory=).
        status.st_uid = 0
        #expect(RuntimeDirectory.problem(with: status, userID: 1000) == nil)
    }
}

// MARK: Helpers shared by this target's suites

/// A fresh directory under the temp dir; the caller removes it.
func scratch(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "ears-socket-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    // Explicit bits: another suite's listener briefly changes the umask.
    chmod(path, 0o755)
    return path
}

/// Removes `path` and everything in it.
func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// `lstat` of `path`.
func status(_ path: String) throws -> stat {
    var result = stat()
    guard lstat(path, &result) == 0 else { throw SocketError.system(call: "lstat", path: path, errno: errno) }
    return result
}

/// The permission bits of `path`.
func mode(_ path: String) throws -> mode_t {
    try status(path).st_mode & 0o7777
}
