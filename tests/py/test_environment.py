"""The environment variables the harness reads: every one is in the one
table the Makefile's header holds (make help), with its default, or in its
list of those the harness sets for the commands it starts."""
import glob
import os
import re
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))

# ${NAME:-...}, ${NAME-...}, ${NAME:=...}, ${NAME:?...}, os.environ.get("NAME")
READ = re.compile(r"\$\{([A-Z][A-Z0-9_]*):?[-=?]|os\.environ(?:\.get\(|\[)\"([A-Z][A-Z0-9_]*)\"")


def harness_files():
    """The host side of the harness: scripts/, bench/run.sh."""
    files = glob.glob(os.path.join(REPO, "scripts", "**", "*"), recursive=True)
    files.append(os.path.join(REPO, "bench", "run.sh"))
    return sorted(f for f in files if os.path.isfile(f) and not f.endswith(".pyc"))


def makefile_table():
    """(user, internal): the variables of the Makefile header's table, with
    a default ("NAME=DEFAULT"), and those the harness sets itself."""
    with open(os.path.join(REPO, "Makefile"), encoding="utf-8") as f:
        header = f.read().split("\n\n", 1)[0]
    table = header.split("# Variables", 1)[1]
    user = set(re.findall(r"^#   ([A-Z][A-Z0-9_]*)=", table, re.M))
    user |= set(re.findall(r"^#   [A-Z][A-Z0-9_]*=.*?, ([A-Z][A-Z0-9_]*)=", table, re.M))
    internal = table.split("# Set by the harness", 1)[1]
    return user, set(re.findall(r"\b([A-Z][A-Z0-9_]+)\b", internal))


def record_names():
    """The names of a row's record (harness.py row_record) and
    configs/qemu.env: sourced from files the harness writes, not read from
    the environment."""
    with open(os.path.join(REPO, "scripts", "harness.py"), encoding="utf-8") as f:
        names = set(re.findall(r'\("([A-Z][A-Z0-9_]*)", ', f.read()))
    with open(os.path.join(REPO, "configs", "qemu.env"), encoding="utf-8") as f:
        names |= set(re.findall(r"^([A-Z][A-Z0-9_]*)=", f.read(), re.M))
    return names


class Environment(unittest.TestCase):
    def test_table_has_defaults(self):
        user, internal = makefile_table()
        for name in ("BASE", "ROW", "ROWS", "KERNEL_SRC", "BUILD", "GUESTS"):
            self.assertIn(name, user)
        self.assertIn("BUILD_LOCKED", internal)

    def test_every_variable_read_is_listed(self):
        user, internal = makefile_table()
        known = user | internal | record_names()
        unlisted = {}
        for path in harness_files():
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    for m in READ.finditer(line):
                        name = m.group(1) or m.group(2)
                        if name not in known:
                            unlisted.setdefault(name, "%s:%d" % (os.path.relpath(path, REPO), n))
        self.assertEqual(unlisted, {}, "read from the environment, not in make help's table")

    def test_internal_dropped(self):
        """lib.sh drops from a user's environment what the harness sets."""
        _, internal = makefile_table()
        with open(os.path.join(REPO, "scripts", "lib.sh"), encoding="utf-8") as f:
            dropped = set(re.search(r"\n\tunset ([A-Z_ ]+)\n", f.read()).group(1).split())
        self.assertEqual(internal - {"TOP", "T0"}, dropped)


if __name__ == "__main__":
    unittest.main()
