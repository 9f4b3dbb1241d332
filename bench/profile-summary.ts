/**
 * Summaries of the profiles profile.ts collects: the engine's Go CPU profile (through
 * `go tool pprof`), Node's `.cpuprofile` files (self time grouped by what the code belongs to), and
 * the engine's gRPC log (message count and bytes per method).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/** The engine's functions whose cumulative time the summary names, by what they stand for. */
const ENGINE_PARTS: [string, RegExp][] = [
  ["marshal properties (to gRPC)", /plugin\.MarshalProperties$/],
  ["unmarshal properties (from gRPC)", /plugin\.UnmarshalProperties$/],
  [
    "protobuf encode/decode",
    /^google\.golang\.org\/protobuf\/internal\/impl\.\(\*MessageInfo\)\.(marshal|unmarshal)Pointer$/,
  ],
  ["state: serialize deployment", /stack\.SerializeDeployment$/],
  ["state: JSON encode", /^encoding\/json\.Marshal$/],
  [
    "state: save checkpoint",
    /\.\(\*localBackend\)\.saveStack$|\.\(\*diyBackend\)\.saveStack$|persistSnapshot$/,
  ],
  ["diff (engine)", /resource\.\(PropertyMap\)\.Diff$/],
  ["log (glog)", /logging\.V|glog\.\(Verbose\)\.Infof$/],
  ["garbage collector", /^runtime\.gcBgMarkWorker$/],
];

/** Cumulative seconds of the engine's notable functions, and its top functions by own time. */
export function pprofSummary(file: string): string {
  const top = execFileSync("go", ["tool", "pprof", "-top", "-nodecount=100000", "-cum", file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    maxBuffer: 256 * 2 ** 20,
  });
  const lines = top.split("\n");
  const header = lines.filter((l) => /^(Duration|Showing nodes|Total)/.test(l.trim())).join("; ");
  const rows = lines
    .map((l) => l.trim().split(/\s+/))
    .filter(
      (cells) =>
        cells.length >= 6 && /^[\d.]+(s|ms|us|µs|min)$/.test(cells[0] ?? "") && /s$/.test(cells[3] ?? ""),
    )
    .map((cells) => ({
      flat: toSeconds(cells[0] ?? ""),
      cum: toSeconds(cells[3] ?? ""),
      fn: cells.slice(5).join(" "),
    }));
  const parts = ENGINE_PARTS.map(([label, pattern]) => {
    const cum = rows.filter((r) => pattern.test(r.fn)).reduce((max, r) => Math.max(max, r.cum), 0);
    return `  ${label}: ${cum.toFixed(2)} s`;
  });
  const flat = [...rows].sort((a, b) => b.flat - a.flat).slice(0, 12);
  return [
    `engine ${path.basename(file)}: ${header}`,
    ...parts,
    "  top own time:",
    ...flat.map((r) => `    ${r.flat.toFixed(2)} s  ${r.fn}`),
  ].join("\n");
}

function toSeconds(text: string): number {
  const value = parseFloat(text);
  if (text.endsWith("ms")) return value / 1000;
  if (text.endsWith("us") || text.endsWith("µs")) return value / 1e6;
  if (text.endsWith("min")) return value * 60;
  return value;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** What a sampled frame belongs to. */
function bucketOf(url: string, fn: string): string {
  if (fn === "(garbage collector)") return "GC";
  if (fn === "(idle)") return "idle";
  if (fn === "(program)") return "V8 (compile, native)";
  if (url.includes("google-protobuf")) return "google-protobuf";
  if (url.includes("@grpc")) return "grpc-js";
  if (url.includes("@pulumi/pulumi")) {
    if (/runtime\/(rpc|state)|rpc\.js/.test(url)) return "@pulumi/pulumi serialization";
    return "@pulumi/pulumi other";
  }
  if (url.includes("pulumi-devplatform")) return "pulumi-devplatform (ours)";
  if (url.includes("/zod/")) return "zod (ours: validation)";
  if (url.includes("typescript") || url.includes("ts-node")) return "TypeScript transpile";
  if (url.startsWith("node:") || url === "") return "Node.js internals";
  return "other";
}

/** Which process a profile is, from the code it ran. */
function processOf(urls: Set<string>): string {
  const all = [...urls].join("\n");
  if (/cmd\/dynamic-provider/.test(all)) return "dynamic provider host";
  if (/cmd\/run/.test(all)) return "program (language host's node)";
  if (/provider\/plugin\/(main|server)/.test(all)) return "provider plugin";
  return "node process";
}

/** Self time by bucket of one `.cpuprofile`, and its top functions. */
export function nodeProfileSummary(file: string): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  const urls = new Set(profile.nodes.map((n) => n.callFrame.url));
  for (const [id, micros] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const bucket = bucketOf(frame.url, frame.functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + micros);
    const name = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*node_modules\//, "")}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  const s = (micros: number) => (micros / 1e6).toFixed(2);
  const wall = (profile.endTime - profile.startTime) / 1e6;
  const sorted = (m: Map<string, number>, count: number) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
  return [
    `node ${processOf(urls)} (${path.basename(file)}): ${wall.toFixed(2)} s profiled`,
    ...sorted(buckets, 12).map(([b, m]) => `  ${s(m)} s  ${b}`),
    "  top own time:",
    ...sorted(functions, 8).map(([f, m]) => `    ${s(m)} s  ${f}`),
  ].join("\n");
}

/**
 * Calls, bytes and time per gRPC method of a `PULUMI_DEBUG_GRPC` log (bytes of the JSON logged:
 * close to the protobuf's for strings; time as the engine's side of the call saw it).
 */
export function grpcSummary(file: string): string {
  const methods = new Map<
    string,
    { count: number; request: number; response: number; max: number; ms: number }
  >();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as {
      method?: string;
      request?: unknown;
      response?: unknown;
      progress?: string;
      duration?: number;
      metadata?: { mode?: string };
    };
    // Each call is logged when it starts and when it completes: count the completion.
    if (entry.progress === "request_started") continue;
    const method = entry.method ?? "?";
    const m = methods.get(method) ?? { count: 0, request: 0, response: 0, max: 0, ms: 0 };
    // The engine's server side (the resource monitor) logs no usable duration.
    if (entry.metadata?.mode === "client") m.ms += (entry.duration ?? 0) / 1e6;
    const request = JSON.stringify(entry.request ?? null).length;
    const response = JSON.stringify(entry.response ?? null).length;
    m.count++;
    m.request += request;
    m.response += response;
    m.max = Math.max(m.max, request, response);
    methods.set(method, m);
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  return [...methods.entries()]
    .sort((a, b) => b[1].request + b[1].response - (a[1].request + a[1].response))
    .map(
      ([method, m]) =>
        `  ${method}: ${m.count} calls, ${m.ms.toFixed(0)} ms, requests ${kb(m.request)}, responses ${kb(m.response)}, largest ${kb(m.max)}`,
    )
    .join("\n");
}
