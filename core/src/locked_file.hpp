#pragma once
// The one way core takes the exclusive lock of a results file by its name: the appender, perfgate
// prune and perfgate merge all go through it, so that they agree on which file is "the file".
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/core/expected.hpp"

namespace perfgate::detail {

// Opens `path` with `access` (O_WRONLY | O_APPEND, or O_RDWR) and takes flock(LOCK_EX) on it.
// Returns the locked descriptor (the caller closes it), or nullopt when no file has that name.
// Refused, with the path and `doing` in the message ("append results to", "prune"): a symbolic
// link (a committed link could point anywhere; O_NOFOLLOW) and anything but a regular file
// (O_NONBLOCK, so a FIFO under the name cannot block the open).
//
// Why the name is checked again after the lock is won: prune and merge replace a file by renaming
// a new one over it while holding the old one's lock. A process that was waiting for that lock then
// wins it on a file that is no longer in the folder; what it appends or prunes there is lost (or a
// pruned run comes back). So the lock counts only when the locked file is still the one under the
// name (same device and inode); otherwise it is dropped and the file under the name is locked.
// `opening` words the open's own failure ("cannot open for appending: <errno text>").
Expected<std::optional<int>> open_locked_by_name(const std::string& path, int access, std::string_view doing,
                                                 std::string_view opening);

// Replaces the file under `path`, whose lock (above) the caller holds, with `bytes`: written to a
// temporary beside it (".<name>.<purpose>-XXXXXX"), given `mode`, synced, renamed over the file,
// and the folder synced so that the rename survives a crash. Readers see the old file or the new
// one, never a part. On failure the temporary is removed and the file is left as it was. The
// processes waiting for the lock then find a new file under the name (open_locked_by_name).
Status replace_locked_file(const std::string& path, std::string_view bytes, unsigned mode, std::string_view purpose);

}  // namespace perfgate::detail
