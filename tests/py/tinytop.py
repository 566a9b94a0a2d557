"""A stand-in for the harness's tree (TOP) with a tiny matrix, for tests
that run the harness's shell: configs/matrix.tsv with the given rows,
configs/qemu.env, configs/lava/ (the real templates), configs/dt/, the
expectation sets the rows name, patches/ and scripts/ (the real one)."""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPTS = os.path.join(REPO, "scripts")

COLUMNS = ("name", "base", "kind", "fragments", "policy", "qemu", "params", "env", "expect")

# The machine of the stand-in, other than configs/qemu.env's: a value that
# comes from the real tree is seen.
QEMU_ENV = "QEMU_MACHINE=virt,highmem=off\nQEMU_CPU=cortex-a7\nQEMU_MEMORY=768\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def make_top(top, rows, expect):
    """Lay out a TOP in TOP: ROWS, dicts of the matrix's COLUMNS ("-" for
    an empty one), and EXPECT, expectation set name -> text."""
    lines = ["# a tiny matrix", "\t".join(COLUMNS)]
    lines += ["\t".join(row[c] for c in COLUMNS) for row in rows]
    write(os.path.join(top, "configs", "matrix.tsv"), "\n".join(lines) + "\n")
    write(os.path.join(top, "configs", "qemu.env"), QEMU_ENV)
    write(os.path.join(top, "configs", "dt", "node.dtsi"), "/ { };\n")
    for name, text in expect.items():
        write(os.path.join(top, "kselftest", "expect", name), text)
    write(os.path.join(top, "patches", "series"), "0001-a.patch\n")
    write(os.path.join(top, "patches", "0001-a.patch"), "Subject: [PATCH] a\n")
    shutil.copytree(os.path.join(REPO, "configs", "lava"), os.path.join(top, "configs", "lava"))
    os.symlink(SCRIPTS, os.path.join(top, "scripts"))


def env(top, build, **extra):
    """The environment of the harness's shell on the stand-in TOP."""
    e = dict(os.environ, TOP=top, BUILD=build, CCACHE="0")
    for name in ("T0", "LAVA_JOBS", "ARTIFACTS_URL", "DEVICE_TYPES", "KERNEL_SRC"):
        e.pop(name, None)
    e.update(extra)
    return e
