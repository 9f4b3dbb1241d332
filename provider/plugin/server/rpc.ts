/**
 * The gRPC library and the protocol's generated stubs, as `@pulumi/pulumi` publishes them.
 *
 * Loaded from where `@pulumi/pulumi` (this package's peer dependency) resolves them, so the server
 * builds its messages with the very `google-protobuf` and `@grpc/grpc-js` the stubs were generated
 * against, whatever the installing package manager hoisted.
 */
import { createRequire } from "node:module";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as AnyPb from "google-protobuf/google/protobuf/any_pb";
import type * as EmptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import type * as EngineGrpcPb from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as PluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));

/** `@grpc/grpc-js`. */
export const grpc = fromPulumi("@grpc/grpc-js") as typeof GrpcJs;
/** `pulumirpc` provider messages. */
export const providerPb = fromPulumi("@pulumi/pulumi/proto/provider_pb") as typeof ProviderPb;
/** The `pulumirpc.ResourceProvider` service definition. */
export const providerGrpc = fromPulumi("@pulumi/pulumi/proto/provider_grpc_pb") as typeof ProviderGrpcPb;
/** `pulumirpc.PluginInfo`. */
export const pluginPb = fromPulumi("@pulumi/pulumi/proto/plugin_pb") as typeof PluginPb;
/** The engine's `Log` request. */
export const enginePb = fromPulumi("@pulumi/pulumi/proto/engine_pb") as typeof EnginePb;
/** The engine service client. */
export const engineGrpc = fromPulumi("@pulumi/pulumi/proto/engine_grpc_pb") as typeof EngineGrpcPb;
/** `google.rpc.Status`, the carrier of an error's details. */
export const statusPb = fromPulumi("@pulumi/pulumi/proto/status_pb") as typeof StatusPb;
/** `google.protobuf.Struct`/`Value`. */
export const structPb = fromPulumi("google-protobuf/google/protobuf/struct_pb") as typeof StructPb;
/** `google.protobuf.Any`. */
export const anyPb = fromPulumi("google-protobuf/google/protobuf/any_pb") as typeof AnyPb;
/** `google.protobuf.Empty`. */
export const emptyPb = fromPulumi("google-protobuf/google/protobuf/empty_pb") as typeof EmptyPb;

export type { EnginePb, GrpcJs, ProviderPb, StructPb };
