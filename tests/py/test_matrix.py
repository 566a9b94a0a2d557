"""scripts/harness.py matrix and subseries: the one reader of
configs/matrix.tsv and patches/subseries, and Documentation/rows.md."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPTS = os.path.join(REPO, "scripts")
sys.dont_write_bytecode = True  # no scripts/__pycache__
sys.path.insert(0, SCRIPTS)
import harness  # noqa: E402

MATRIX = """# a tiny matrix
#   name  row name

name\tbase\tkind\texpect
a-1\t6.12\tconfig\tdefault
b-1\t6.1\tparam\tpool
a-2\t6.12\tedge\tpool|edge
"""

SUBSERIES = """# sub-series
name\tpatches\tneeds\tprefix\ton-6.1
fix\t1-4\t-\tPATCH\tyes
policy\t5-20\tfix\tPATCH\tno
pool\t21-41\tfix policy\tRFC PATCH\tno
"""


class Tables(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_harness(self, *args):
        """harness.py ARGS: (exit status, stdout, stderr)."""
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "harness.py")] + list(args),
                           capture_output=True, text=True, check=False)
        return p.returncode, p.stdout, p.stderr

    def test_read(self):
        header, rows, comments = harness.read_table(self.write("m.tsv", MATRIX))
        self.assertEqual(header, ["name", "base", "kind", "expect"])
        self.assertEqual([r["name"] for r in rows], ["a-1", "b-1", "a-2"])
        self.assertEqual(rows[2]["expect"], "pool|edge")
        self.assertEqual(comments, ["a tiny matrix", "  name  row name"])

    def test_rows_bases_fields(self):
        m = self.write("m.tsv", MATRIX)
        self.assertEqual(self.run_harness("matrix", "--file", m, "rows"), (0, "a-1\nb-1\na-2\n", ""))
        self.assertEqual(self.run_harness("matrix", "--file", m, "rows", "--base", "6.12"),
                         (0, "a-1\na-2\n", ""))
        self.assertEqual(self.run_harness("matrix", "--file", m, "bases"), (0, "6.12\n6.1\n", ""))
        self.assertEqual(self.run_harness("matrix", "--file", m, "field", "b-1", "kind"),
                         (0, "param\n", ""))
        self.assertEqual(self.run_harness("matrix", "--file", m, "row", "b-1")[1],
                         "name\tb-1\nbase\t6.1\nkind\tparam\nexpect\tpool\n")

    def test_unknown(self):
        m = self.write("m.tsv", MATRIX)
        rc, out, err = self.run_harness("matrix", "--file", m, "field", "c-1", "kind")
        self.assertEqual((rc, out), (1, ""))
        self.assertIn("no row 'c-1' in %s" % m, err)
        rc, out, err = self.run_harness("matrix", "--file", m, "field", "a-1", "qemu")
        self.assertEqual((rc, out), (1, ""))
        self.assertIn("has no column 'qemu'", err)

    def test_bad_tables(self):
        short = self.write("short.tsv", MATRIX + "c-1\t6.12\tconfig\n")
        with self.assertRaisesRegex(harness.TableError, r"short.tsv:8: 3 fields, the header has 4"):
            harness.read_table(short)
        twice = self.write("twice.tsv", MATRIX + "a-1\t6.12\tconfig\tdefault\n")
        with self.assertRaisesRegex(harness.TableError, r"twice.tsv:8: 'a-1' is already line 5"):
            harness.read_table(twice)
        with self.assertRaisesRegex(harness.TableError, "no header line"):
            harness.read_table(self.write("empty.tsv", "# nothing\n"))

    def test_markdown(self):
        header, rows, comments = harness.read_table(self.write("m.tsv", MATRIX))
        md = harness.matrix_markdown(header, rows, comments)
        self.assertIn("3 rows: 2 on 6.12, 1 on 6.1.", md)
        self.assertIn("| `a-2` | `6.12` | `edge` | `pool\\|edge` |", md)
        self.assertIn("```\na tiny matrix\n  name  row name\n```", md)

    def test_rows_md_current(self):
        """Documentation/rows.md is what `make rows` writes of the matrix."""
        rc, out, err = self.run_harness("matrix", "--file",
                                        os.path.join(REPO, "configs", "matrix.tsv"), "markdown")
        self.assertEqual(rc, 0, err)
        with open(os.path.join(REPO, "Documentation", "rows.md"), encoding="utf-8") as f:
            self.assertEqual(f.read(), out, "Documentation/rows.md is stale: run make rows")

    def test_subseries(self):
        s = self.write("subseries", SUBSERIES)
        self.assertEqual(harness.read_subseries(s, 41)[2],
                         ("pool", 21, 41, ["fix", "policy"], "RFC PATCH", "no"))
        rc, out, _ = self.run_harness("subseries", "--file", s, "--patches", "41")
        self.assertEqual(rc, 0)
        self.assertEqual(out.splitlines()[0], "fix\t1\t4\t-\tPATCH\tyes")
        with self.assertRaisesRegex(harness.TableError, "sub-series pool: patches 21-41 outside 1-40"):
            harness.read_subseries(s, 40)
        bad = self.write("bad", SUBSERIES.replace("5-20\tfix", "5-20\tpool"))
        with self.assertRaisesRegex(harness.TableError, "policy needs 'pool', which is not listed before"):
            harness.read_subseries(bad, 41)
        bad = self.write("bad2", SUBSERIES.replace("1-4", "1to4"))
        with self.assertRaisesRegex(harness.TableError, "fix: patches '1to4' is not FIRST-LAST"):
            harness.read_subseries(bad, 41)


if __name__ == "__main__":
    unittest.main()
