#!/usr/bin/env python3
"""check_function_lengths.py on made-up sources: what counts as a function and how long it is."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from check_function_lengths import functions  # noqa: E402

CHECKER = pathlib.Path(__file__).with_name("check_function_lengths.py")


def body(lines: int) -> str:
    return "".join(f"    x += {i};\n" for i in range(lines))


class FunctionLengthTest(unittest.TestCase):
    def test_a_function_is_counted_from_its_head_to_its_brace(self):
        src = "namespace a {\nint\nf(int x)\n{\n" + body(5) + "    return x;\n}\n}  // namespace a\n"
        self.assertEqual(functions(src), [("f", 2, 11)])

    def test_lambdas_and_blocks_count_towards_their_function(self):
        src = "void g() {\n    auto h = [](int y) {\n        if (y) { return 1; }\n        return 0;\n    };\n}\n"
        self.assertEqual(functions(src), [("g", 1, 6)])

    def test_classes_namespaces_and_tables_are_not_functions(self):
        src = ("struct S : B {\n    int m() const { return 1; }\n};\n"
               "static const int table[] = {\n1,\n2,\n3,\n};\n"
               "enum class E { a, b };\n")
        self.assertEqual(functions(src), [("m", 2, 2)])

    def test_braces_in_comments_strings_and_macros_are_ignored(self):
        src = ('#define OPEN {\n// }\nvoid k() {\n    const char* s = "}{";\n    char c = \'}\';\n'
               "    /* { */\n}\n")
        self.assertEqual(functions(src), [("k", 3, 7)])

    def test_qualified_names_and_trailing_qualifiers(self):
        src = "auto Gate::run() const -> Report {\n    return {};\n}\nvoid T::f() noexcept override {\n}\n"
        self.assertEqual(functions(src), [("Gate::run", 1, 3), ("T::f", 4, 5)])

    def test_the_checker_names_file_line_and_length(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            (root / "gates/src").mkdir(parents=True)
            (root / "gates/src/long.cpp").write_text("// x\nvoid judge() {\n" + body(70) + "}\n", encoding="utf-8")
            (root / "gates/src/short.cpp").write_text("void ok() {\n" + body(10) + "}\n", encoding="utf-8")
            result = subprocess.run([sys.executable, str(CHECKER), tmp], capture_output=True, text=True)
            self.assertEqual(result.returncode, 1, result.stdout)
            self.assertIn("gates/src/long.cpp:2: judge is 72 lines", result.stdout)
            self.assertNotIn("short.cpp", result.stdout)
            result = subprocess.run([sys.executable, str(CHECKER), tmp, "--max-lines", "80"], capture_output=True,
                                    text=True)
            self.assertEqual(result.returncode, 0, result.stdout)


if __name__ == "__main__":
    unittest.main()
