#pragma once
// A scratch git repository for the pull-request tests: a base commit on main and a change on a
// branch, as CI sees them (the base ref is the merge base, never the commit under test).
#include <catch2/catch.hpp>

#include <boost/filesystem/operations.hpp>

#include "gate_test_support.hpp"
#include "perfgate/core/search_path.hpp"
#include "perfgate/gates/git_tree.hpp"

namespace perfgate::gates::testing {

inline void git(const std::string& repo, const std::vector<std::string>& args) {
    auto out = run_git(repo, args);
    const std::string why = out ? std::string() : out.error().message;
    INFO(why);
    REQUIRE(out.has_value());
}

// An empty repository on branch main, with an identity for commits. False (and a warning) when
// git is not installed.
inline bool init_repo(const std::string& repo) {
    if (!find_on_path("git")) {
        WARN("git is not installed; pull-request simulation not run");
        return false;
    }
    boost::filesystem::create_directories(repo);
    git(repo, {"init", "--quiet", "--initial-branch=main"});
    git(repo, {"config", "user.email", "gate@example.invalid"});
    git(repo, {"config", "user.name", "gate test"});
    return true;
}

// Commits everything on a new branch `name` with a file of its own, so that the branch's tree
// differs from its base (a commit with the base's very files is refused as a base ref).
inline void commit_change(const std::string& repo, const std::string& name) {
    git(repo, {"checkout", "--quiet", "-b", name});
    spit(repo + "/CHANGE-" + name, name + "\n");
    git(repo, {"add", "-A"});
    git(repo, {"commit", "--quiet", "-m", name});
}

}  // namespace perfgate::gates::testing
