#!/usr/bin/env python3
"""check_self_contained.py on made-up trees: a clean one passes, and each spelling is caught."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).with_name("check_self_contained.py")
SIBLING = "sha" + "red"  # spelled in two parts so the real check does not report this file


def check(files: dict[str, str]) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            path = pathlib.Path(tmp) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return subprocess.run([sys.executable, str(CHECKER), tmp], capture_output=True, text=True)


class SelfContained(unittest.TestCase):
    def test_clean_tree_passes(self):
        r = check({"CMakeLists.txt": 'set(F "${SRC}/tests/fixtures")\n', "docs/a.md": "a shared library\n"})
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_cmake_path_is_caught(self):
        r = check({"CMakeLists.txt": "x\n" + f'set(D "${{SRC}}/../{SIBLING}")\n'})
        self.assertEqual(r.returncode, 1)
        self.assertIn("CMakeLists.txt:2:", r.stdout)

    def test_doc_and_script_paths_are_caught(self):
        r = check({"docs/x.md": f"see `../{SIBLING}/reference/a.md`\n",
                   "s.sh": f'F="$here/../../../{SIBLING}/fixtures"\n'})
        self.assertEqual(r.returncode, 1)
        self.assertIn("docs/x.md:1:", r.stdout)
        self.assertIn("s.sh:1:", r.stdout)

    def test_path_from_parts_is_caught(self):
        r = check({"t.py": f'open(os.path.join(SOURCE, "..", "{SIBLING}", "fixtures", "a"))\n'})
        self.assertEqual(r.returncode, 1)
        self.assertIn("t.py:1:", r.stdout)

    def test_build_folders_are_not_read(self):
        r = check({"build/ci/x.cmake": f"../{SIBLING}\n", "ok.txt": "fine\n"})
        self.assertEqual(r.returncode, 0, r.stdout)


if __name__ == "__main__":
    unittest.main()
