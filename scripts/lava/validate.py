#!/usr/bin/python3
"""Validate LAVA job definitions with LAVA's own code.  One line per job on
stdout: PASS|FAIL <TAB> CHECK/JOB <TAB> detail.

  lava/validate.py schema JOB.yaml...
      lava_common.schemas.validate(), strict: the check a LAVA server makes
      when a job is submitted (lavacli jobs submit, lavacli jobs validate).
  lava/validate.py pipeline DEVICE_TYPES_DIR DICTIONARY.jinja2 JOB.yaml...
      lava_dispatcher's JobParser and Job.validate() against the device
      dictionary rendered with the job's context: the check lava-run makes
      before it runs a job (lava-run --validate), without needing root or a
      TFTP server (the worker's TFTP folder and in.tftpd are infrastructure,
      not part of a job: a scratch folder stands in for them).  The job's
      file:// artifacts must exist.
"""
import importlib.util
import logging
import os
import shutil
import sys
import tempfile

import yaml


def schema(jobs):
    from lava_common.schemas import validate
    from voluptuous import Invalid

    for path in jobs:
        name = os.path.basename(path)
        try:
            with open(path, encoding="utf-8") as f:
                data = yaml.safe_load(f)
            validate(data, strict=True, extra_context_variables=[])
        except (yaml.YAMLError, Invalid) as exc:
            print("FAIL\tschema/%s\t%s" % (name, " ".join(str(exc).split())))
        else:
            print("PASS\tschema/%s\t" % name)


def pipeline(types_dir, dictionary, jobs):
    from lava_common.exceptions import LAVAError
    from lava_common.log import YAMLLogger
    from lava_dispatcher.device import NewDevice
    from lava_dispatcher.parser import JobParser
    import lava_dispatcher.actions.deploy.tftp as tftp_action
    import lava_dispatcher.utils.filesystem as filesystem

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("lava_device", os.path.join(here, "device.py"))
    lava_device = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lava_device)

    # A TFTP deployment wants the TFTP server's folder (/etc/default/tftpd-hpa)
    # and its binary: a scratch folder, and no check for in.tftpd.
    tftp = tempfile.mkdtemp(prefix="lava-validate-tftp-")
    filesystem.tftpd_dir = lambda: tftp
    which = tftp_action.which
    tftp_action.which = lambda path, *args: path if path == "in.tftpd" else which(path, *args)
    logging.setLoggerClass(YAMLLogger)
    logger = logging.getLogger("dispatcher")
    log_file = os.environ.get("LAVA_VALIDATE_LOG", os.devnull)
    logger.addHandler(logging.FileHandler(log_file))
    logger.setLevel(logging.DEBUG)
    try:
        for n, path in enumerate(jobs):
            name = os.path.basename(path)
            job = None
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                device = NewDevice(yaml.safe_load(lava_device.render(types_dir, dictionary, path)))
                job = JobParser().parse(text, device, "validate-%d-%d" % (os.getpid(), n),
                                        logger=logger, dispatcher_config=None, env_dut=None)
                job.validate()
            except LAVAError as exc:
                print("FAIL\tpipeline/%s\t%s: %s" % (name, type(exc).__name__, str(exc).replace("\n", " ")))
            except Exception as exc:  # a template or YAML error
                print("FAIL\tpipeline/%s\t%s: %s" % (name, type(exc).__name__, str(exc).replace("\n", " ")))
            else:
                print("PASS\tpipeline/%s\t%s, %d actions" % (
                    name, os.path.basename(dictionary), len(job.pipeline.actions)))
            finally:
                if job is not None:
                    for d in [job.tmp_dir] + list(job.base_overrides.values()):
                        shutil.rmtree(d, ignore_errors=True)
    finally:
        shutil.rmtree(tftp, ignore_errors=True)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "schema":
        schema(sys.argv[2:])
    elif mode == "pipeline" and len(sys.argv) > 4:
        pipeline(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
