/** The Pulumi release the toolchain pins (scripts/provision-pulumi.sh) and the SDK the e2e programs use. */
export const PULUMI_SDK_VERSION = "3.259.0";
