#!/usr/bin/env python3
"""scripts/check-layers: passes on this repository, and fails on a tree with a back-edge.

    tests/tools/check_layers_test.py    # unittest; run by `meson test layers`
"""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "check-layers")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class CheckLayersTest(unittest.TestCase):
    def make_tree(self, files):
        """A temporary tree holding `files` (path -> text)."""
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        for path, text in files.items():
            full = os.path.join(directory.name, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as out:
                out.write(text)
        return directory.name

    def test_this_repository_keeps_its_layers(self):
        result = run()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_includes_down_the_layers_pass(self):
        root = self.make_tree({
            "keys/qprof/key.hpp": "",
            "include/qprof/trace.hpp": "",
            "instrument/qprof/detail/recorder.hpp": "#include <qprof/key.hpp>\n",
            "src/text.hpp": "",
            "src/session.cpp": '#include <qprof/trace.hpp>\n#include "text.hpp"\n',
            "reporters/counts_reporter.cpp": '#include "text.hpp"\n',
            "io/raw_reader.cpp": '#include "text.hpp"\n',
            "src/cli/main.cpp": '#include "raw_reader.hpp"\n#include "../text.hpp"\n',
            "io/raw_reader.hpp": "",
        })
        result = run("--root", root)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_runtime_including_a_reporter_fails(self):
        root = self.make_tree({
            "reporters/builtin_reporters.hpp": "",
            "src/session.cpp": '\n#include "builtin_reporters.hpp"\n',
        })
        result = run("--root", root)
        self.assertEqual(result.returncode, 1)
        self.assertIn("src/session.cpp:2: includes reporters/builtin_reporters.hpp: the runtime "
                      "may not include the reporters", result.stdout)

    def test_hot_path_including_the_public_api_fails(self):
        root = self.make_tree({
            "keys/qprof/key.hpp": "",
            "include/qprof/session.hpp": "",
            "instrument/qprof/detail/key_record.hpp":
                "#include <qprof/key.hpp>\n#include <qprof/session.hpp>\n",
        })
        result = run("--root", root)
        self.assertEqual(result.returncode, 1)
        self.assertIn("key_record.hpp:2: includes include/qprof/session.hpp: the hot path may "
                      "not include the public API", result.stdout)
        self.assertNotIn(":1:", result.stdout)  # key formatting sits below the hot path

    def test_reader_reached_from_the_runtime_fails(self):
        root = self.make_tree({
            "io/raw_reader.hpp": "",
            "src/collector.cpp": '#include "../io/raw_reader.hpp"\n',
            "src/cli/args.hpp": "",
            "reporters/html_format.cpp": '#include "cli/args.hpp"\n',
        })
        result = run("--root", root)
        self.assertEqual(result.returncode, 1)
        self.assertIn("src/collector.cpp:1: includes io/raw_reader.hpp", result.stdout)
        self.assertIn("reporters/html_format.cpp:1: includes src/cli/args.hpp: the reporters may "
                      "not include the tool", result.stdout)


if __name__ == "__main__":
    unittest.main()
