"""One device, its configuration, and what the platform reports about it."""
import pulumi
import pulumi_devplatform as devplatform

device = devplatform.Device("lobby", sn="240000A10001", name="lobby-temperature", tags=["floor-1"])
devplatform.DeviceConfig("lobby-config", device_ids=device.device_id, properties={"reportInterval": 900})
pulumi.export("deviceId", device.device_id)
pulumi.export("firmware", devplatform.get_device_output(device_id=device.device_id).firmware_version)
