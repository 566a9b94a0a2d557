"""scripts/lib.sh pkgs_fetch, which downloads a package the machine's own
apt sources do not have (a newer base's linux-source-BASE) from the first
Debian suite of pkgs_suites that has it, on a stand-in archive (file://,
its Release files signed with a key made for the test): the suites are
asked in their order and no further than the first that has the package,
a suite of the machine's own sources is left out, the newest version of
that suite is taken (a NotAutomatic suite, as experimental, included),
only main's Packages index of the host's architecture is fetched, and the
failure names every suite looked in.  The real order is pkgs_suites'."""
import gzip
import hashlib
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))

ARCH = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                      check=True).stdout.strip()

# The stand-in archive: suite -> ({package: [versions]}, NotAutomatic).
ARCHIVE = {
    "alpha": ({"hello": ["1.0-1"]}, False),
    "beta": ({"linux-source-9.7": ["9.7.1-1", "9.7.2-1"]}, False),
    "gamma": ({"linux-source-9.7": ["9.7.3-1"], "linux-source-9.8": ["9.8~rc1-1"]}, True),
}
# The machine's own suites, as pkgs_machine_suites would print them.
MACHINE = ["base", "base-security"]

# One call of pkgs_fetch: lib.sh sourced, the stand-in's mirror, keyring,
# suites and machine suites; prints "OK suite version deb" or "NO why".
FETCH = r"""
set -euo pipefail
. "$TOP/scripts/lib.sh"
pkgs_mirror=$1 pkgs_keyring=$2
read -r -a pkgs_suites <<<"$3"
read -r -a machine <<<"$4"
pkgs_machine_suites() { printf '%s\n' "${machine[@]}"; }
if pkgs_fetch test "$BUILD/logs/fetch.log" "$5" >/dev/null; then
	echo "OK $pkgs_suite $pkgs_version $pkgs_deb"
else
	echo "NO $pkgs_why"
fi
"""


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def deb_bytes(name, version):
    """A pool file's content: apt-get download checks its size and hash only."""
    return f"stand-in {name} {version}\n".encode()


class PkgsFetch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not (shutil.which("gpg") and shutil.which("gpg-agent") and shutil.which("apt-get")):
            raise unittest.SkipTest("gpg, gpg-agent or apt-get missing (scripts/stages/deps.sh installs them)")
        cls.tmp = tempfile.mkdtemp(prefix="pkgs-fetch-")
        cls.gnupg = os.path.join(cls.tmp, "gnupg")
        os.mkdir(cls.gnupg, 0o700)
        cls.genv = dict(os.environ, GNUPGHOME=cls.gnupg)
        gpg = ["gpg", "--batch", "--quiet", "--pinentry-mode", "loopback", "--passphrase", ""]
        subprocess.run(gpg + ["--quick-gen-key", "stand-in archive <archive@invalid>", "ed25519",
                              "sign", "never"], env=cls.genv, check=True, capture_output=True)
        cls.keyring = os.path.join(cls.tmp, "keyring.gpg")
        with open(cls.keyring, "wb") as f:
            subprocess.run(["gpg", "--batch", "--export"], env=cls.genv, check=True, stdout=f)
        # A key that did not sign the archive, in a keyring of its own.
        other = os.path.join(cls.tmp, "other")
        os.mkdir(other, 0o700)
        cls.oenv = dict(os.environ, GNUPGHOME=other)
        subprocess.run(gpg + ["--quick-gen-key", "another <another@invalid>", "ed25519", "sign", "never"],
                       env=cls.oenv, check=True, capture_output=True)
        cls.other_keyring = os.path.join(cls.tmp, "other.gpg")
        with open(cls.other_keyring, "wb") as f:
            subprocess.run(["gpg", "--batch", "--export"], env=cls.oenv, check=True, stdout=f)
        cls.answers = {}
        root = os.path.join(cls.tmp, "archive")
        cls.mirror = "file://" + root
        for suite, (pkgs, notauto) in ARCHIVE.items():
            stanzas = []
            for name, versions in pkgs.items():
                for v in versions:
                    data = deb_bytes(name, v)
                    fn = f"pool/main/l/{name}_{v}_all.deb"
                    write(os.path.join(root, fn), data)
                    stanzas.append(f"Package: {name}\nVersion: {v}\nArchitecture: all\n"
                                   f"Maintainer: nobody <nobody@invalid>\nFilename: {fn}\n"
                                   f"Size: {len(data)}\nSHA256: {hashlib.sha256(data).hexdigest()}\n"
                                   f"Description: stand-in\n")
            # The host's index, and others that must not be fetched: a second
            # architecture's (the same packages) and a translation.
            other = "i386" if ARCH != "i386" else "armhf"
            files = {f"main/binary-{ARCH}/Packages": "\n".join(stanzas).encode(),
                     f"main/binary-{other}/Packages": "\n".join(stanzas).encode(),
                     "main/i18n/Translation-en": b""}
            files = {**files, **{k + ".gz": gzip.compress(v, mtime=0) for k, v in files.items()}}
            release = ["Origin: stand-in", "Label: stand-in", f"Suite: {suite}", f"Codename: {suite}",
                       "Date: Tue, 08 Dec 2026 00:00:00 UTC", f"Architectures: {ARCH} {other}",
                       "Components: main"]
            if notauto:
                release.append("NotAutomatic: yes")
            release.append("SHA256:")
            for rel, data in sorted(files.items()):
                write(os.path.join(root, "dists", suite, rel), data)
                release.append(f" {hashlib.sha256(data).hexdigest()} {len(data)} {rel}")
            path = os.path.join(root, "dists", suite, "Release")
            write(path, ("\n".join(release) + "\n").encode())
            subprocess.run(gpg + ["--clearsign", "-o", os.path.join(os.path.dirname(path), "InRelease"),
                                  path], env=cls.genv, check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        for env in (cls.genv, cls.oenv):
            subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=env, capture_output=True)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def fetch(self, pkg, suites=("alpha", "beta", "gamma"), machine=MACHINE, keyring=None):
        """pkgs_fetch PKG in a BUILD of its own: (answer, BUILD), asked once."""
        keyring = keyring or self.keyring
        key = (pkg, suites, tuple(machine), keyring)
        if key in self.answers:
            return self.answers[key]
        build = tempfile.mkdtemp(dir=self.tmp, prefix="build-")
        env = {k: v for k, v in os.environ.items() if k not in ("BUILD", "BUILD_LOCKED", "TOP")}
        env.update(TOP=REPO, BUILD=build, CCACHE="0")
        p = subprocess.run(["bash", "-c", FETCH, "fetch", self.mirror, keyring, " ".join(suites),
                            " ".join(machine), pkg], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.answers[key] = p.stdout.strip(), build
        return self.answers[key]

    def asked(self, build):
        """The suites pkgs_fetch asked (those with a state folder)."""
        return sorted(d for d in os.listdir(os.path.join(build, "apt")) if d != "debs")

    def test_first_suite_that_has_it_newest_version(self):
        out, build = self.fetch("linux-source-9.7")
        word, suite, version, deb = out.split(" ", 3)
        # beta's newest, although gamma, later, has a newer one
        self.assertEqual((word, suite, version), ("OK", "beta", "9.7.2-1"))
        with open(deb, "rb") as f:
            self.assertEqual(f.read(), deb_bytes("linux-source-9.7", "9.7.2-1"))
        self.assertEqual(self.asked(build), ["alpha", "beta"])

    def test_only_the_hosts_packages_index(self):
        _, build = self.fetch("linux-source-9.7")
        lists = os.listdir(os.path.join(build, "apt", "beta", "lists"))
        indexes = [f for f in lists if "_dists_" in f and not f.endswith("Release")]
        self.assertTrue(indexes, lists)
        for f in indexes:
            self.assertIn(f"_main_binary-{ARCH}_Packages", f)

    def test_notautomatic_suite(self):
        out, _ = self.fetch("linux-source-9.8")
        self.assertEqual(out.split(" ")[:3], ["OK", "gamma", "9.8~rc1-1"])

    def test_machine_suite_left_out(self):
        out, build = self.fetch("linux-source-9.7", machine=MACHINE + ["beta"])
        self.assertEqual(out.split(" ")[:3], ["OK", "gamma", "9.7.3-1"])
        self.assertEqual(self.asked(build), ["alpha", "gamma"])

    def test_none_has_it(self):
        out, build = self.fetch("linux-source-9.9")
        self.assertEqual(out, "NO no Debian suite has linux-source-9.9 (looked in: the machine's sources "
                              "(base, base-security), alpha, beta, gamma)")
        self.assertFalse(os.path.exists(os.path.join(build, "apt", "debs")))

    def test_suite_that_cannot_be_read(self):
        out, build = self.fetch("linux-source-9.7", suites=("alpha", "nosuch", "beta"))
        self.assertTrue(out.startswith(f"NO apt-get update of Debian nosuch ({self.mirror}) failed: E: "), out)
        self.assertEqual(self.asked(build), ["alpha", "nosuch"])

    def test_signed_by_its_keyring_only(self):
        out, build = self.fetch("linux-source-9.7", keyring=self.other_keyring)
        self.assertTrue(out.startswith(f"NO apt-get update of Debian alpha ({self.mirror}) failed: E: "), out)
        self.assertEqual(self.asked(build), ["alpha"])

    def test_real_order(self):
        env = dict(os.environ, TOP=REPO, BUILD=os.path.join(self.tmp, "order"), CCACHE="0")
        p = subprocess.run(["bash", "-c", '. "$TOP/scripts/lib.sh"; printf "%s\\n" "${pkgs_suites[@]}" '
                            '"$pkgs_mirror" "$pkgs_keyring"'], env=env, capture_output=True, text=True,
                           check=True)
        self.assertEqual(p.stdout.split(), ["bookworm-backports", "trixie", "trixie-backports", "unstable",
                                            "experimental", "http://deb.debian.org/debian",
                                            "/usr/share/keyrings/debian-archive-keyring.gpg"])


if __name__ == "__main__":
    unittest.main()
