"""One step of the plugin lifecycle as a Python inline program (Automation API), for the e2e test.

Usage: python plugin_lifecycle.py STEP SPEC_JSON
STEP is up, preview (expects no changes), refresh or destroy. SPEC_JSON names the work dir (whose
Pulumi.yaml finds the plugin through `plugins.providers`), the stack, the resources' inputs and,
for an import, each resource's import id. The last stdout line is `RESULT <json>`: the engine's
change summary and the stack outputs.
"""

import json
import sys

import pulumi
import pulumi_devplatform as devplatform
from pulumi import automation as auto


def resource_options(spec, name, depends_on=None):
    """The `import_` option when the step imports the resource instead of creating it."""
    import_id = spec.get("imports", {}).get(name)
    return pulumi.ResourceOptions(import_=import_id, depends_on=depends_on)


def program_of(spec):
    res = spec["resources"]

    def program():
        device = devplatform.Device(
            "device",
            sn=res["device"]["sn"],
            name=res["device"]["name"],
            tags=res["device"]["tags"],
            opts=resource_options(spec, "device"),
        )
        fleet = devplatform.DeviceFleet(
            "fleet",
            devices=[
                devplatform.DeviceFleetDeviceArgs(sn=d["sn"], name=d["name"], project=d["project"])
                for d in res["fleet"]
            ],
            opts=resource_options(spec, "fleet"),
        )
        rps = devplatform.RpsProfile(
            "rps",
            sn=res["rps"]["sn"],
            profile_url=res["rps"]["profileUrl"],
            opts=resource_options(spec, "rps"),
        )
        # One deviceId as a string: Pulumi's Python SDK cannot serialize a list given to this
        # string|list|map union input (its type check expects a plain list annotation).
        config = devplatform.DeviceConfig(
            "config",
            device_ids=device.device_id,
            properties=res["config"]["properties"],
            opts=resource_options(spec, "config"),
        )
        pulumi.export("deviceId", device.device_id)
        pulumi.export("fleetDeviceIds", fleet.device_ids)
        pulumi.export("rpsProfileUrl", rps.profile_url)
        pulumi.export("configProperties", config.properties)
        pulumi.export("getDeviceName", devplatform.get_device_output(device_id=device.device_id).name)

    return program


def main():
    step, spec_path = sys.argv[1], sys.argv[2]
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    stack = auto.create_or_select_stack(
        stack_name=spec["stack"],
        project_name=spec["project"],
        program=program_of(spec),
        opts=auto.LocalWorkspaceOptions(work_dir=spec["workDir"]),
    )
    out = sys.stderr.write
    if step == "up":
        result = stack.up(on_output=out)
        changes, outputs = result.summary.resource_changes, result.outputs
    elif step == "preview":
        result = stack.preview(on_output=out, expect_no_changes=True, diff=True)
        changes, outputs = result.change_summary, {}
    elif step == "refresh":
        result = stack.refresh(on_output=out)
        changes, outputs = result.summary.resource_changes, stack.outputs()
    elif step == "destroy":
        result = stack.destroy(on_output=out)
        changes, outputs = result.summary.resource_changes, {}
    else:
        raise SystemExit(f"unknown step {step!r}: up, preview, refresh or destroy")
    plain = {key: value.value for key, value in outputs.items()}
    changes = {str(getattr(op, "value", op)): n for op, n in (changes or {}).items()}
    print("RESULT " + json.dumps({"changes": changes, "outputs": plain}))


if __name__ == "__main__":
    main()
