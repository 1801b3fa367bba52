"""Reduces a Debian root filesystem made by mmdebstrap to what a program in it needs at run time: the image's
root holds that program, its libraries and their data, and no shell, package manager or other program.

What stays:
- everything under /usr/local (the program; Debian's packages never install there);
- the shared libraries the program loads, found from its NEEDED entries and theirs (RUNPATH included),
  resolved in the root as the dynamic linker does, and the plugins the packages holding them ship (ELF files in
  a subdirectory: glibc's gconv modules, gdk-pixbuf's loaders) with what those need in turn; the other shared
  libraries of those packages go (nothing loads them);
- the packages Debian says those depend on (fonts, fontconfig's configuration, Thai dictionaries, MIME data),
  up to packages that are Essential or of priority required (the base system) and debconf (install time only);
- base-files (`/etc/os-release`), ca-certificates and tzdata, named on the command line;
- of each kept package, every other file but its programs (`bin`, `sbin`); every file in `/etc` that no removed
  package owns and that is not a link to nothing (users, groups, the CA bundle and its links); fontconfig's cache; and `/var/lib/dpkg/status`
  cut to the kept packages, so image scanners still list them.

Then the dynamic linker's cache is written again for the files left. Prints the kept packages and the sizes.
Usage: prune-root.py ROOT PROGRAM [PACKAGE...]   (PROGRAM: its path in ROOT; PACKAGEs are kept as data)
"""
import os
import subprocess
import sys

LIBRARY_DIRS = ["usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu", "usr/lib", "lib"]
PROGRAM_DIRS = ("usr/bin/", "usr/sbin/", "bin/", "sbin/", "usr/games/")
# What the container runtime provides, and what mmdebstrap has mounted while its hooks run: never walked.
RUNTIME_DIRS = {"dev", "proc", "sys", "run", "tmp"}
INSTALL_TIME_ONLY = {"debconf"}


def fail(message):
    sys.exit(f"prune-root: {message}")


def read_status(root):
    """{package: (fields, stanza text)} from dpkg's status file, installed packages only."""
    packages = {}
    with open(os.path.join(root, "var/lib/dpkg/status")) as status:
        for stanza in status.read().split("\n\n"):
            fields, key = {}, None
            for line in stanza.splitlines():
                if line.startswith((" ", "\t")) and key:
                    fields[key] += "\n" + line
                else:
                    key, _, value = line.partition(":")
                    fields[key] = value.strip()
            if "Package" in fields and fields.get("Status", "").endswith(" installed"):
                packages[fields["Package"]] = (fields, stanza.strip("\n"))
    return packages


def read_owners(root, packages):
    """({path relative to root: the packages listing it}, {package: [paths]}) from dpkg's file lists (a
    directory is often listed by several packages)."""
    owners, files = {}, {}
    info = os.path.join(root, "var/lib/dpkg/info")
    for package in packages:
        for name in (f"{package}.list", f"{package}:amd64.list"):
            path = os.path.join(info, name)
            if os.path.exists(path):
                with open(path) as listing:
                    paths = [line.strip().lstrip("/") for line in listing if line.strip() not in ("", "/.")]
                files[package] = paths
                for entry in paths:
                    owners.setdefault(entry, set()).add(package)
                break
        else:
            fail(f"dpkg has no file list for {package}")
    return owners, files


def inside(root, path):
    """PATH (relative to ROOT) with every symbolic link resolved inside ROOT, as a chroot would."""
    parts, resolved, hops = path.split("/"), "", 0
    while parts:
        part = parts.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            resolved = os.path.dirname(resolved)
            continue
        candidate = os.path.join(resolved, part) if resolved else part
        full = os.path.join(root, candidate)
        if os.path.islink(full):
            hops += 1
            if hops > 40:
                fail(f"symbolic link loop at {path}")
            target = os.readlink(full)
            parts = target.split("/") + parts
            resolved = "" if target.startswith("/") else resolved
        else:
            resolved = candidate
    return resolved


def located(root, path):
    """Where the file PATH names lies, its directories resolved but not itself (a link stays a link)."""
    directory, name = os.path.split(path)
    return os.path.join(inside(root, directory), name) if directory else name


def needed(root, path):
    """(the NEEDED entries of the ELF file at PATH, the directories its RUNPATH or RPATH names relative to ROOT),
    or ([], []) for a file that is not one."""
    with open(path, "rb") as file:
        if file.read(4) != b"\x7fELF":
            return [], []
    output = subprocess.run(["readelf", "--dynamic", "--wide", path], capture_output=True, text=True).stdout
    entries = {"(NEEDED)": [], "(RUNPATH)": [], "(RPATH)": []}
    for line in output.splitlines():
        for tag, values in entries.items():
            if tag in line:
                values.append(line.split("[", 1)[1].rstrip("]"))
    origin = os.path.relpath(os.path.dirname(path), root)
    paths = [entry.replace("$ORIGIN", "/" + origin).lstrip("/")
             for value in entries["(RUNPATH)"] + entries["(RPATH)"] for entry in value.split(":")]
    return entries["(NEEDED)"], paths


def is_elf(root, path):
    full = os.path.join(root, path)
    if os.path.islink(full) or not os.path.isfile(full):
        return False
    with open(full, "rb") as file:
        return file.read(4) == b"\x7fELF"


def is_plugin(root, entry):
    path = inside(root, entry)
    return any(path.startswith(directory + "/") and "/" in path[len(directory) + 1:]
               for directory in LIBRARY_DIRS[:2]) and is_elf(root, path)


def library_closure(root, program, owners, files):
    """(the kept library files with the links naming them, the packages holding them)."""
    kept_files, kept_packages = set(), set()
    work = [os.path.join(root, program)]
    seen = set()
    while work:
        path = work.pop()
        if path in seen:
            continue
        seen.add(path)
        sonames, search = needed(root, path)
        for soname in sonames:
            for directory in search + LIBRARY_DIRS:
                link = os.path.join(directory, soname)
                if os.path.lexists(os.path.join(root, link)):
                    break
            else:
                fail(f"{soname} (needed by {path}) is not in the root")
            target = inside(root, link)
            for name in (link, target):
                kept_files.add(name)
            found = owners.get(target) or owners.get(link) or owners.get(target.replace("usr/lib/", "lib/", 1))
            if not found:
                fail(f"no package owns {target} ({soname})")
            package = min(found)
            work.append(os.path.join(root, target))
            if package not in kept_packages:
                kept_packages.add(package)
                # Its plugins (ELF files in a library directory's subdirectories: gconv modules, gdk-pixbuf's
                # loaders) are loaded by name at run time, so they stay, with the libraries they need.
                plugins = [inside(root, entry) for entry in files[package] if is_plugin(root, entry)]
                kept_files.update(plugins)
                work += [os.path.join(root, plugin) for plugin in plugins]
    return kept_files, kept_packages


def dependencies(fields, packages):
    """The installed packages satisfying FIELDS' Depends and Pre-Depends (the first installed alternative)."""
    found = []
    for key in ("Pre-Depends", "Depends"):
        for relation in filter(None, (part.strip() for part in fields.get(key, "").split(","))):
            for alternative in relation.split("|"):
                name = alternative.strip().split(" ")[0].split(":")[0]
                if name in packages:
                    found.append(name)
                    break
    return found


def depends_closure(start, packages):
    kept, work = set(), list(start)
    while work:
        package = work.pop()
        if package in kept:
            continue
        kept.add(package)
        for dependency in dependencies(packages[package][0], packages):
            fields = packages[dependency][0]
            if fields.get("Essential") == "yes" or fields.get("Priority") == "required" \
                    or dependency in INSTALL_TIME_ONLY:
                continue
            work.append(dependency)
    return kept


def walk(root):
    """os.walk over ROOT, parents first, outside the runtime directories."""
    for directory, names, files in os.walk(root):
        if directory == root:
            names[:] = [name for name in names if name not in RUNTIME_DIRS]
        yield directory, names, files


def tree_size(root):
    total = 0
    for directory, _, names in walk(root):
        for name in names:
            path = os.path.join(directory, name)
            if not os.path.islink(path):
                total += os.path.getsize(path)
    return total


def main():
    if len(sys.argv) < 3:
        fail(__doc__.strip().splitlines()[-1])
    root, program, data = sys.argv[1], sys.argv[2].lstrip("/"), sys.argv[3:]
    if not os.path.isfile(os.path.join(root, program)):
        fail(f"no {program} in {root}")
    before = tree_size(root)
    packages = read_status(root)
    missing = [package for package in data if package not in packages]
    if missing:
        fail(f"not installed: {' '.join(missing)}")
    owners, files = read_owners(root, packages)
    library_files, library_packages = library_closure(root, program, owners, files)
    kept = depends_closure(library_packages, packages) | set(data)
    loader = inside(root, "lib64/ld-linux-x86-64.so.2")
    if not (owners.get(loader, set()) | owners.get(loader.replace("usr/lib/", "lib/", 1), set())) & kept:
        fail("the dynamic linker's package is not kept")

    keep = set(library_files) | {"lib64/ld-linux-x86-64.so.2", loader}
    for package in kept:
        for entry in files[package]:
            path = inside(root, entry) if os.path.lexists(os.path.join(root, entry)) else entry
            # Programs go; so do shared libraries nothing loads (ICU's i18n, NSS's soft token): the dynamic
            # linker only ever opens what the closure found.
            if not entry.startswith(PROGRAM_DIRS) and (path in library_files or not is_elf(root, path)):
                keep.add(entry)
    # dpkg lists paths as packages ship them; with merged /usr a /lib path lives under /usr/lib.
    keep.update(located(root, entry) for entry in list(keep))
    keep.update(inside(root, entry) for entry in list(keep) if os.path.lexists(os.path.join(root, entry)))
    info = {f"var/lib/dpkg/info/{package}{suffix}" for package in kept for suffix in ("", ":amd64")}

    def stays(path):
        if path in keep or path.startswith(("usr/local/", "var/cache/fontconfig/")):
            return True
        if path.startswith("etc/"):
            # A file no package owns stays when the nearest directory a package owns is a kept package's (so
            # /etc/passwd and the CA links stay, apt's sources list goes), unless it is a link to nothing.
            ancestor = path
            while ancestor not in owners:
                ancestor = os.path.dirname(ancestor)
            dangling = not os.path.exists(os.path.join(root, inside(root, path)))
            return bool(owners[ancestor] & kept) and not dangling
        if path.startswith("var/lib/dpkg/info/"):
            # What scanners read: which files each package installed, and their checksums.
            base, _, kind = path.rpartition(".")
            return base in info and kind in ("list", "md5sums")
        return path == "var/lib/dpkg/status" or ("/" not in path and os.path.islink(os.path.join(root, path)))

    # An empty directory goes unless a kept package owns it or it was empty already and no package owns it (the
    # cache's, made by the caller).
    empty = {directory for directory, names, files_here in walk(root) if not names and not files_here}
    for directory, names, files_here in reversed(list(walk(root))):
        relative = os.path.relpath(directory, root)
        for name in files_here + [name for name in names if os.path.islink(os.path.join(directory, name))]:
            path = name if relative == "." else f"{relative}/{name}"
            if not stays(path):
                os.unlink(os.path.join(directory, name))
        if relative != "." and not os.listdir(directory) and relative not in keep \
                and (directory not in empty or relative in owners):
            os.rmdir(directory)

    with open(os.path.join(root, "var/lib/dpkg/status"), "w") as status:
        status.write("\n\n".join(packages[package][1] for package in sorted(kept)) + "\n")
    subprocess.run(["ldconfig", "-r", root], check=True)
    print(f"prune-root: kept {len(kept)} of {len(packages)} packages: {' '.join(sorted(kept))}")
    print(f"prune-root: {before / 1e6:.1f} MB before, {tree_size(root) / 1e6:.1f} MB after")


main()
