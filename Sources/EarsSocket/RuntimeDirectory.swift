import Glibc

/// The directory ears keeps its sockets in, and the rule for when it is safe.
///
/// Safe means nobody but its owner can add, remove or rename entries in it:
/// otherwise another user could replace a socket with a symbolic link in the
/// moment between ears binding it and setting its group, and have root
/// change the link's target instead (issue 12, defect 1).
package enum RuntimeDirectory {
    /// Makes sure `directory` exists and is safe to hold the sockets.
    ///
    /// A missing directory (only the last path component; its parent must
    /// exist) is created with mode `0o700`, or `0o710` with group `groupID`
    /// when one is given: the group needs search permission to reach a
    /// `0o660` socket inside, and nothing more. The group and mode are set
    /// through a descriptor of the new directory, never by path. An existing
    /// directory's mode is left as its owner set it.
    ///
    /// Either way the directory must then be a real directory (not a
    /// symbolic link), owned by the effective user or root, and writable by
    /// its owner alone (neither the group nor other write bit set). The
    /// ownership rule matters most for the `/tmp/ears-<uid>` fallback, which
    /// another local user could otherwise create first.
    ///
    /// - Throws: `SocketError.system` for failed calls, `.unsafeDirectory`
    ///   (with the command that fixes it) if a check fails.
    package static func prepare(_ directory: String, groupID: gid_t? = nil) throws(SocketError) {
        var status: stat
        do {
            status = try UnixSocketListener.fileStatus(directory)
        } catch .system(_, _, ENOENT) {
            do {
                try create(directory, groupID: groupID)
            } catch .system(_, _, EEXIST) {
                // Lost a race with another creator; the checks below decide.
            }
            status = try UnixSocketListener.fileStatus(directory)
        }
        if let problem = problem(with: status) {
            throw .unsafeDirectory(path: directory, problem: problem)
        }
    }

    /// What makes a directory with `status` (from `lstat`) unsafe for the
    /// effective user `userID`, or nil if nothing does.
    package static func problem(with status: stat, userID: uid_t = geteuid()) -> SocketError.DirectoryProblem? {
        let type = status.st_mode & S_IFMT
        if type == S_IFLNK { return .symbolicLink }
        guard type == S_IFDIR else { return .notADirectory }
        guard status.st_uid == userID || status.st_uid == 0 else {
            return .foreignOwner(owner: status.st_uid, expected: userID)
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            return .writableByOthers(mode: status.st_mode & 0o7777)
        }
        return nil
    }

    /// Creates `directory` (0700, or 0710 with `groupID`).
    ///
    /// Group first, then the group's search bit: if the group change fails,
    /// the directory stays 0700 rather than opening to the process's own
    /// group. `fchmod` also undoes the umask's filtering of mkdir's mode.
    /// Both go through a descriptor opened with `O_NOFOLLOW`, so a directory
    /// swapped for a link right after `mkdir` is refused, not followed.
    private static func create(_ directory: String, groupID: gid_t?) throws(SocketError) {
        try SocketCall.run("mkdir", path: directory) { mkdir(directory, 0o700) }
        let fd = try SocketCall.run("open", path: directory) {
            Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        defer { SocketCall.close(fd, path: directory) }
        if let groupID {
            try SocketCall.run("fchown", path: directory) { fchown(fd, uid_t.max, groupID) }
        }
        let mode: mode_t = groupID == nil ? 0o700 : 0o710
        try SocketCall.run("fchmod", path: directory) { fchmod(fd, mode) }
    }
}
