// Devices, device fleets, RPS records and TSL-validated device configuration of an IoT device platform.
package devplatform
