"""scripts/harness.py lava-job and scripts/lava/jobs.sh: the LAVA jobs of a
two-row matrix, built as data from configs/lava/'s templates and written
with yaml.safe_dump."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
import tinytop  # noqa: E402

sys.path.insert(0, tinytop.SCRIPTS)
import harness  # noqa: E402

try:
    import yaml
except ImportError:
    yaml = None

LAVA = os.path.join(tinytop.REPO, "configs", "lava")
SERIES = "9db590deac80397e847bcb69c7610063cbc330c0"
URL = "https://lava.example.org/a b/"

# A value with what YAML gives a meaning: ": ", " #", quotes, a leading "@".
SPECIAL = "msg=\"a: b\" note='it''s' x=#1 y=a #b @at: [1, {2}] & *z"

RECORDS = [
    dict(ROW="6.12-debug", KEY="6.12-base+lpae+reject+pool+debug",
         EXPECT="/top/kselftest/expect/debug", POLICY="reject",
         TESTS="arm:vmap_stacks.sh,arm:ioremap_pool.sh", PARAMS="ioremap_pool=16M",
         GUEST_ENV="IOREMAP_POOL_LOADS=5  IOREMAP_POOL_STRESS_OPS=20000", MEMORY="1024",
         QEMU_EXTRA="-smp 2", QEMU_MACHINE="virt,highmem=off", QEMU_CPU="cortex-a15"),
    dict(ROW="6.1-odd", KEY="6.1-base+reject", EXPECT="/top/kselftest/expect/odd: #1",
         POLICY="warn: \"quoted\" # not a comment", TESTS="arm:a.sh,arm:'b'.sh",
         PARAMS=SPECIAL, GUEST_ENV="", MEMORY="256", QEMU_EXTRA="",
         QEMU_MACHINE="virt,highmem=off", QEMU_CPU="cortex-a15"),
]


def template(name):
    with open(os.path.join(LAVA, name), encoding="utf-8") as f:
        return f.read()


def job(record, device_type):
    """RECORD's job on DEVICE_TYPE, as text and as the data it loads to."""
    values = harness.job_values(record, device_type, URL, SERIES)
    data = harness.lava_job(template("job-%s.yaml" % device_type), template("test-kselftest.yaml"), values)
    text = harness.lava_job_text(data, ["LAVA job: row %s." % record["ROW"]])
    return text, yaml.safe_load(text)


def urls(node):
    """Every "url" value of NODE."""
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "url"] + [u for v in node.values() for u in urls(v)]
    if isinstance(node, list):
        return [u for v in node for u in urls(v)]
    return []


@unittest.skipIf(yaml is None, "no yaml module (python3-yaml)")
class LavaJob(unittest.TestCase):
    def check_row(self, record, device_type):
        text, data = job(record, device_type)
        self.assertTrue(text.startswith("# LAVA job: row %s.\n" % record["ROW"]))
        self.assertEqual(data["device_type"], device_type)
        self.assertEqual(data["job_name"], "ioremap-ram %s on %s" % (record["ROW"], device_type))
        self.assertEqual(data["metadata"], {
            "ioremap-ram.row": record["ROW"], "ioremap-ram.build": record["KEY"],
            "ioremap-ram.expect": os.path.basename(record["EXPECT"]),
            "ioremap-ram.policy": record["POLICY"], "ioremap-ram.series": SERIES})
        self.assertEqual([list(a) for a in data["actions"]], [["deploy"], ["boot"], ["test"]])
        test = data["actions"][2]["test"]["definitions"][0]["repository"]
        self.assertEqual(test["params"], {"TESTS": record["TESTS"]})
        base = "https://lava.example.org/a b/%s/%s/" % (record["KEY"], device_type)
        self.assertTrue(urls(data["actions"]))
        for url in urls(data["actions"]):
            self.assertTrue(url.startswith(base), url)
        return data

    def test_qemu(self):
        a = self.check_row(RECORDS[0], "qemu")
        self.assertEqual(a["context"], {"arch": "arm", "machine": "virt,highmem=off", "cpu": "cortex-a15",
                                        "memory": 1024, "extra_options": ["-smp", "2"]})
        kernel = a["actions"][0]["deploy"]["images"]["kernel"]
        self.assertEqual(kernel["image_arg"], '-kernel {kernel} -append "console=ttyAMA0 log_buf_len=4M '
                         'panic=-1 ioremap_pool=16M IOREMAP_POOL_LOADS=5 IOREMAP_POOL_STRESS_OPS=20000"')
        self.assertEqual(kernel["url"], "https://lava.example.org/a b/6.12-base+lpae+reject+pool+debug/qemu/zImage")

    def test_qemu_special(self):
        # no other qemu option: no extra_options; YAML's characters in the
        # values come back as they went in
        b = self.check_row(RECORDS[1], "qemu")
        self.assertEqual(b["context"], {"arch": "arm", "machine": "virt,highmem=off", "cpu": "cortex-a15",
                                        "memory": 256})
        self.assertTrue(b["actions"][0]["deploy"]["images"]["kernel"]["image_arg"].endswith(
            "panic=-1 %s\"" % SPECIAL))

    def test_beaglebone_black(self):
        for record in RECORDS:
            data = self.check_row(record, "beaglebone-black")
            cmdline = " ".join((record["PARAMS"] + " " + record["GUEST_ENV"]).split())
            self.assertEqual(data["context"], {"extra_kernel_args": "log_buf_len=4M " + cmdline})

    def test_missing_value(self):
        with self.assertRaisesRegex(harness.TemplateError, "@NOPE@"):
            harness.fill({"a": ["x @NOPE@ y"]}, {})
        with self.assertRaisesRegex(harness.TemplateError, "in a key"):
            harness.fill({"@ROW@": 1}, {"ROW": "r"})
        with self.assertRaisesRegex(harness.TemplateError, "@L@"):
            harness.fill("x @L@", {"L": ["a"]})
        with self.assertRaisesRegex(harness.TemplateError, "no value for ROW"):
            harness.job_values({}, "qemu", URL, SERIES)

    def test_fill(self):
        values = {"N": 3, "S": "a: b", "L": ["-x", "1"], "NONE": None}
        self.assertEqual(harness.fill({"n": "@N@", "s": "[@S@] @N@", "l": "@L@", "gone": "@NONE@",
                                       "list": ["@NONE@", "@S@"], "k": 1, "t": True},
                                      values),
                         {"n": 3, "s": "[a: b] 3", "l": ["-x", "1"], "list": ["a: b"], "k": 1, "t": True})


MATRIX = [
    dict(name="6.12-a", base="6.12", kind="param", fragments="base.config reject.config",
         policy="reject", qemu="-m 256 -smp 2", params="ioremap_pool=16M", env="IOREMAP_POOL_LOADS=2",
         expect="set-a"),
    dict(name="6.12-b", base="6.12", kind="param", fragments="base.config warn.config",
         policy="warn", qemu="-", params="msg=\"a: b # c\" x=#1", env="NOTE='q: r'", expect="set-b"),
    dict(name="6.12-dt", base="6.12", kind="param", fragments="base.config",
         policy="warn", qemu="-dtb dt/node.dtsi", params="-", env="-", expect="set-b"),
]


@unittest.skipIf(yaml is None, "no yaml module (python3-yaml)")
class LavaJobsScript(unittest.TestCase):
    # scripts/lava/jobs.sh on a stand-in tree with a tiny matrix: the jobs'
    # files, their data, the row left out and the counts.
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        top = os.path.join(cls.tmp.name, "top")
        tinytop.make_top(top, MATRIX, {"set-a": "ioremap_pool.sh load ok\n",
                                       "set-b": "ioremap_ram.sh map ok\nioremap_ram.sh unmap ok\n"})
        cls.out = os.path.join(cls.tmp.name, "jobs")
        cls.proc = subprocess.run(
            [os.path.join(tinytop.SCRIPTS, "lava/jobs.sh")], capture_output=True, text=True,
            env=tinytop.env(top, os.path.join(cls.tmp.name, "build"), LAVA_JOBS=cls.out,
                            ARTIFACTS_URL="https://lava.example.org/x/"))
        cls.jobs = {}
        for name in sorted(os.listdir(cls.out)) if os.path.isdir(cls.out) else []:
            with open(os.path.join(cls.out, name), encoding="utf-8") as f:
                cls.jobs[name] = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_files(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertEqual(sorted(self.jobs), ["6.12-a-beaglebone-black.yaml", "6.12-a-qemu.yaml",
                                             "6.12-b-beaglebone-black.yaml", "6.12-b-qemu.yaml"])
        self.assertIn("lava-jobs 6.12-dt: left out: its device tree is QEMU's with dt/node.dtsi added",
                      self.proc.stdout)
        self.assertIn("lava-jobs 4 jobs (2 rows x 2 device types) in %s, artifacts from "
                      "https://lava.example.org/x\n" % self.out, self.proc.stdout)

    def test_header(self):
        self.assertTrue(self.jobs["6.12-b-qemu.yaml"].startswith(
            "# LAVA job: row 6.12-b of configs/matrix.tsv on device type qemu.\n"
            "# Generated by scripts/lava/jobs.sh from configs/lava/job-qemu.yaml and\n"
            "# configs/lava/test-kselftest.yaml: do not edit.\n"))

    def test_values(self):
        a = yaml.safe_load(self.jobs["6.12-a-qemu.yaml"])
        b = yaml.safe_load(self.jobs["6.12-b-qemu.yaml"])
        bb = yaml.safe_load(self.jobs["6.12-b-beaglebone-black.yaml"])
        self.assertEqual(a["context"], {"arch": "arm", "machine": "virt,highmem=off", "cpu": "cortex-a7",
                                        "memory": 256, "extra_options": ["-smp", "2"]})
        self.assertEqual(b["context"]["memory"], 768)
        self.assertNotIn("extra_options", b["context"])
        self.assertEqual(b["metadata"]["ioremap-ram.policy"], "warn")
        self.assertEqual(b["metadata"]["ioremap-ram.expect"], "set-b")
        self.assertEqual(b["metadata"]["ioremap-ram.build"], "6.12-base+warn")
        cmdline = "msg=\"a: b # c\" x=#1 NOTE='q: r'"
        self.assertTrue(b["actions"][0]["deploy"]["images"]["kernel"]["image_arg"].endswith(
            "panic=-1 %s\"" % cmdline))
        self.assertEqual(bb["context"]["extra_kernel_args"], "log_buf_len=4M " + cmdline)
        self.assertEqual(b["actions"][2]["test"]["definitions"][0]["repository"]["params"],
                         {"TESTS": "arm:ioremap_ram.sh"})
        self.assertEqual(a["actions"][0]["deploy"]["images"]["ramdisk"]["url"],
                         "https://lava.example.org/x/6.12-base+reject/qemu/rootfs.cpio.gz")


if __name__ == "__main__":
    unittest.main()
