"""The plugin lifecycle's program in Python, run by `pulumi up` (runtime: python).

It reads the resources' inputs from spec.json beside it (the e2e test rewrites it per step) and
exports the same outputs as the lifecycle's programs in the other languages, and the prefix of the
Python that ran it, so the test sees which virtual environment that was.
"""

import json
import sys

import pulumi
import pulumi_devplatform as devplatform

with open("spec.json", encoding="utf-8") as f:
    res = json.load(f)["resources"]

device = devplatform.Device("device", sn=res["device"]["sn"], name=res["device"]["name"], tags=res["device"]["tags"])
fleet = devplatform.DeviceFleet(
    "fleet",
    devices=[devplatform.DeviceFleetDeviceArgs(sn=d["sn"], name=d["name"], project=d["project"]) for d in res["fleet"]],
)
rps = devplatform.RpsProfile("rps", sn=res["rps"]["sn"], profile_url=res["rps"]["profileUrl"])
# One deviceId as a string: Pulumi's Python SDK cannot serialize a list given to this
# string|list|map union input (its type check expects a plain list annotation).
config = devplatform.DeviceConfig("config", device_ids=device.device_id, properties=res["config"]["properties"])

pulumi.export("deviceId", device.device_id)
pulumi.export("fleetDeviceIds", fleet.device_ids)
pulumi.export("rpsProfileUrl", rps.profile_url)
pulumi.export("configProperties", config.properties)
pulumi.export("getDeviceName", devplatform.get_device_output(device_id=device.device_id).name)
pulumi.export("pythonPrefix", sys.prefix)
