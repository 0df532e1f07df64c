import Glibc

/// An exclusive `flock` on a folder, held by this process until `release()`: the processes that open the
/// same database set it up one at a time (`Store.openRestoringBackup`). A folder that cannot be opened or
/// locked is not locked (SQLite's own locking still holds; only the setup race comes back).
final class FolderLock {
    private var fd: Int32

    init(_ folder: String) {
        fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                fd = -1
                return
            }
        }
    }

    func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
