#!/usr/bin/env python3
"""check_architecture.py on made-up trees: a clean one passes, and each breach is named."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).with_name("check_architecture.py")
PICTURE = "```tree\nCMakeLists.txt   root\ncore/CMakeLists.txt   core\n```\n"


def make_tree(root: pathlib.Path, files: dict[str, str]) -> None:
    base = {
        "CMakeLists.txt": "",
        "core/CMakeLists.txt": "",
        "core/src/a.cpp": '#include "perfgate/core/a.hpp"\n',
        "docs/development.md": PICTURE,
    }
    base.update(files)
    for name, text in base.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def check(files: dict[str, str]) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as tmp:
        make_tree(pathlib.Path(tmp), files)
        return subprocess.run([sys.executable, str(CHECKER), tmp], capture_output=True, text=True)


class CheckerTest(unittest.TestCase):
    def test_clean_tree_passes(self):
        result = check({"gates/src/g.cpp": '#include "perfgate/probes/x.hpp"\n#include "perfgate/gates/y.hpp"\n'})
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_a_build_tree_of_any_name_is_not_read(self):
        # cmake -S . -B b: b/ holds CMakeCache.txt, the fetched llama.cpp (a folder named like a
        # source file) and CMakeLists.txt of its own; none of it is the project's (issue 49).
        result = check({"b/CMakeCache.txt": "", "b/llama.cpp/CMakeLists.txt": "",
                        "b/llama.cpp/tests/t.cpp": 'TEST_CASE("a; b")\n'})
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        # A folder of sources that is no build tree is still read.
        result = check({"extra/CMakeLists.txt": ""})
        self.assertEqual(result.returncode, 1)
        self.assertIn("the picture lacks extra/CMakeLists.txt", result.stdout)

    def test_later_library_is_named_with_file_and_line(self):
        result = check({"perf/src/p.cpp": '// a comment\n#include "perfgate/gates/gate.hpp"\n'})
        self.assertEqual(result.returncode, 1)
        self.assertIn("perf/src/p.cpp:2: perf/ includes perfgate/gates/", result.stdout)

    def test_test_support_outside_tests(self):
        result = check({"core/src/b.cpp": '#include "perfgate/test/files.hpp"\n',
                        "core/tests/t.cpp": '#include "perfgate/test/files.hpp"\n'})
        self.assertEqual(result.returncode, 1)
        self.assertIn("core/src/b.cpp:1: includes tests/support", result.stdout)
        self.assertNotIn("core/tests/t.cpp", result.stdout)

    def test_semicolon_in_a_test_name(self):
        r = check({"core/tests/a_test.cpp": 'x\nTEST_CASE("one thing; another", "[core]") {}\n'})
        self.assertEqual(r.returncode, 1)
        self.assertIn("core/tests/a_test.cpp:2: the test name holds ';'", r.stdout)
        r = check({"core/tests/a_test.cpp": 'TEST_CASE("one thing, another", "[core]") {}\n'})
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_long_cli_file(self):
        result = check({"cli/x_command.cpp": "int x;\n" * 121})
        self.assertEqual(result.returncode, 1)
        self.assertIn("cli/x_command.cpp: 121 lines", result.stdout)

    def test_picture_must_match_both_ways(self):
        result = check({"gates/CMakeLists.txt": "",
                        "docs/development.md": PICTURE.replace("```\n", "old/CMakeLists.txt   gone\n```\n")})
        self.assertEqual(result.returncode, 1)
        self.assertIn("the picture lacks gates/CMakeLists.txt", result.stdout)
        self.assertIn("the picture shows old/CMakeLists.txt", result.stdout)


if __name__ == "__main__":
    unittest.main()
