#!/usr/bin/env python3
"""check_unity_names.py on made-up trees: which helpers clash within a library and which do not."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from check_function_lengths import functions  # noqa: E402
from check_unity_names import clashes  # noqa: E402

CHECKER = pathlib.Path(__file__).with_name("check_unity_names.py")


def tree(files: dict) -> pathlib.Path:
    root = pathlib.Path(tempfile.mkdtemp(prefix="unity-names-"))
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


class LinkageTest(unittest.TestCase):
    def test_anonymous_namespace_and_static_are_file_local_members_and_named_namespaces_are_not(self):
        src = ("namespace a {\nnamespace {\nint f(int x) { return x; }\n}\nint g() { return 1; }\n"
               "static int h() { return 2; }\nstruct S { static int m() { return 3; } };\n}\n")
        self.assertEqual([(n, local) for n, _, _, local in functions(src, with_linkage=True)],
                         [("f", True), ("g", False), ("h", True), ("m", False)])


class ClashTest(unittest.TestCase):
    LIBS = {"lib": ["lib/src"]}

    def test_same_name_with_other_parameters_in_two_files_is_a_clash(self):
        root = tree({"lib/src/a.cpp": "namespace {\nint row(int x) { return x; }\n}\n",
                     "lib/src/b.cpp": "namespace {\nint row(double x) { return 1; }\n}\n"})
        self.assertEqual(clashes(root, self.LIBS), {"lib": {"row": ["lib/src/a.cpp", "lib/src/b.cpp"]}})

    def test_static_helpers_clash_too(self):
        root = tree({"lib/src/a.cpp": "static int pct(int x) { return x; }\n",
                     "lib/src/sub/b.cpp": "namespace n {\nstatic int pct() { return 1; }\n}\n"})
        self.assertEqual(clashes(root, self.LIBS), {"lib": {"pct": ["lib/src/a.cpp", "lib/src/sub/b.cpp"]}})

    def test_public_functions_one_file_and_other_libraries_do_not_clash(self):
        root = tree({"lib/src/a.cpp": "namespace n {\nint run() { return 1; }\nnamespace {\nint f() { return 0; }\n}\n}\n",
                     "lib/src/b.cpp": "namespace n {\nint walk() { return 1; }\n}\n",
                     "other/src/c.cpp": "namespace {\nint f() { return 2; }\n}\n"})
        self.assertEqual(clashes(root, {"lib": ["lib/src"], "other": ["other/src"]}), {})

    def test_the_command_line_fails_and_names_the_files(self):
        root = tree({"core/src/a.cpp": "namespace {\nint f() { return 0; }\n}\n",
                     "core/src/b.cpp": "namespace {\nint f(int) { return 0; }\n}\n"})
        run = subprocess.run([sys.executable, str(CHECKER), str(root)], capture_output=True, text=True)
        self.assertEqual(run.returncode, 1)
        self.assertIn("core: f in core/src/a.cpp, core/src/b.cpp", run.stdout)


if __name__ == "__main__":
    unittest.main()
