#!/usr/bin/python3
"""Render a LAVA device dictionary into a device configuration, as a LAVA
server does before it hands a job to lava-run: the dictionary (a Jinja2
template that extends a device-type template of lava-server) rendered with
the job's context.

Usage: lava/device.py DEVICE_TYPES_DIR DICTIONARY.jinja2 JOB.yaml > device.yaml
"""
import os
import sys

import jinja2.sandbox
import yaml


def render(types_dir, dictionary, job_file):
    """The device configuration (YAML text) for a job."""
    with open(job_file, encoding="utf-8") as f:
        context = (yaml.safe_load(f) or {}).get("context", {})
    # lava_scheduler_app.environment.devices(): a sandbox, devices first
    env = jinja2.sandbox.SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([os.path.dirname(os.path.abspath(dictionary)), types_dir]),
        autoescape=False,
        trim_blocks=True,
    )
    text = env.get_template(os.path.basename(dictionary)).render(**context)
    yaml.safe_load(text)  # Device.load_configuration() parses it: fail here, not in lava-run
    return text


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.stdout.write(render(*sys.argv[1:4]))


if __name__ == "__main__":
    main()
