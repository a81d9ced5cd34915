#pragma once
// A runtime's descendants that left its process group (setsid(), a daemonising library) are out
// of reach of the group kill. perfgate makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so
// such a process, once the processes between it and perfgate are gone, becomes perfgate's own
// child: then it can be found among our children and killed with its own group.
#include <set>
#include <sys/types.h>

namespace perfgate::detail {

// Makes this process the subreaper of its descendants (Linux 3.4 and later; idempotent).
void become_subreaper();

// The pids whose parent is this process, read from /proc.
std::set<pid_t> our_children();

// Kills (SIGKILL, to each one's process group as well) and reaps every child of ours that is not
// in `before` (children that existed before the launch belong to someone else), until none is
// left or about a second has passed. Returns how many were killed.
std::size_t kill_adopted_children(const std::set<pid_t>& before);

}  // namespace perfgate::detail
