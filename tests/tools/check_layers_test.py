#!/usr/bin/env python3
"""scripts/check-layers: passes on this repository and on its build's compile commands, and
fails on a tree with a back-edge or a layer compiled with a higher layer's include folder.

    tests/tools/check_layers_test.py    # unittest; run by `meson test layers`
    QPROF_COMPILE_COMMANDS=build-dev/compile_commands.json tests/tools/check_layers_test.py
"""
import json
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
            # From the root: Meson's implicit include directories would let this compile.
            "src/trace.cpp": '#include "reporters/builtin_reporters.hpp"\n',
        })
        result = run("--root", root)
        self.assertEqual(result.returncode, 1)
        for place in ("src/session.cpp:2", "src/trace.cpp:1"):
            self.assertIn(f"{place}: includes reporters/builtin_reporters.hpp: the runtime "
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

    def compile_commands(self, root, include_folders):
        """compile_commands.json in root/build: src/session.cpp seeing `include_folders`."""
        os.makedirs(os.path.join(root, "build"))
        path = os.path.join(root, "build", "compile_commands.json")
        flags = " ".join("-I" + folder for folder in include_folders)
        with open(path, "w", encoding="utf-8") as out:
            json.dump([{"directory": os.path.join(root, "build"),
                        "command": f"c++ -Ilibqprof_runtime.a.p -I. {flags} -c ../src/session.cpp",
                        "file": "../src/session.cpp"}], out)
        return path

    def test_layers_own_include_folders_pass(self):
        root = self.make_tree({"src/session.cpp": ""})
        path = self.compile_commands(root, ["../keys", "../include", "include", "../src"])
        result = run("--root", root, "--compile-commands", path)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_implicit_include_folders_fail(self):
        root = self.make_tree({"src/session.cpp": ""})
        path = self.compile_commands(root, ["..", "../src"])
        result = run("--root", root, "--compile-commands", path)
        self.assertEqual(result.returncode, 1)
        self.assertIn("src/session.cpp: compiled with the source root as an include folder",
                      result.stdout)
        self.assertIn("implicit_include_directories: false", result.stdout)

    def test_a_higher_layers_include_folder_fails(self):
        root = self.make_tree({"src/session.cpp": ""})
        path = self.compile_commands(root, ["../src", "../reporters"])
        result = run("--root", root, "--compile-commands", path)
        self.assertEqual(result.returncode, 1)
        self.assertIn("src/session.cpp: compiled with reporters/ as an include folder: the "
                      "runtime may not see the reporters", result.stdout)

    @unittest.skipUnless(os.environ.get("QPROF_COMPILE_COMMANDS"), "no build to check")
    def test_this_build_compiles_each_layer_with_its_own_folders(self):
        result = run("--compile-commands", os.environ["QPROF_COMPILE_COMMANDS"])
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)


if __name__ == "__main__":
    unittest.main()
