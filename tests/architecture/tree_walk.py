"""The files of the checkout that the architecture checks read: everything but version control,
installed node modules, and build trees, whatever a build tree is called. A folder that holds a
CMakeCache.txt is a build tree (`cmake -B b` puts one in b/, with the fetched llama.cpp beside it),
as are the folders named in SKIP_DIRS, so `cmake -S . -B anything && ctest` checks the sources,
not what the build put there."""
import os
import pathlib

SKIP_DIRS = {"build", ".git", ".cache", ".device-carry", "node_modules"}


def source_files(root: pathlib.Path, pattern: str = "*"):
    """Every file under `root` (a pathlib glob pattern on the file name), sorted, build trees left out."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not os.path.isfile(os.path.join(folder, d, "CMakeCache.txt"))]
        for name in files:
            path = pathlib.Path(folder) / name
            if path.match(pattern):
                found.append(path)
    return sorted(found)
