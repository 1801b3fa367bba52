#!/usr/bin/env python3
"""Checks that every module a target's Swift files import is one the target declares in Package.swift (a target
or a product), or the toolchain's. SwiftPM builds an undeclared import as long as some other target happens to
build the module first: it breaks later, in a build of that target alone or in a depending package.

Usage: Scripts/check-imports.py [package folder, default this one]. Prints each undeclared import with its file
and exits 1 if there is one.
"""
import json
import pathlib
import re
import subprocess
import sys

# What the toolchain provides on Linux and macOS: never declared.
TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch",
             "Synchronization", "Glibc", "Musl", "Darwin", "Testing", "XCTest", "_Concurrency"}
# `import X`, with attributes (`@testable`, `@_exported`, `@preconcurrency`), an access level or a kind
# (`import struct X.Y`); the module is the first name after it.
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
                    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)", re.M)
DEFAULT_ROOT = {"test": "Tests"}


def declared(target):
    names = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def main():
    package = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=package, check=True,
                                         capture_output=True, text=True).stdout)
    problems = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        folder = package / (target.get("path") or f"{DEFAULT_ROOT.get(target['type'], 'Sources')}/{target['name']}")
        allowed = declared(target) | TOOLCHAIN | {target["name"]}
        excluded = [folder / name for name in target.get("exclude", [])]
        for file in sorted(folder.rglob("*.swift")):
            if any(file.is_relative_to(path) for path in excluded):
                continue
            for module in sorted(set(IMPORT.findall(file.read_text())) - allowed):
                problems.append(f"{file.relative_to(package)}: imports {module}, "
                                f"not a dependency of {target['name']}")
    print("\n".join(problems) if problems else "every import is a declared dependency")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
