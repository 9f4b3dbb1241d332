/**
 * Peak resident memory of the dynamic provider processes while a CLI command runs, read from
 * /proc (VmHWM is the kernel's own high-water mark of a process's resident set).
 */
import { readdirSync, readFileSync } from "node:fs";

function dynamicProviderPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("cmd/dynamic-provider"))
        pids.push(Number(entry));
    } catch {
      // The process ended between listing and reading.
    }
  }
  return pids;
}

function peakKiB(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Samples every 100 ms until stopped; resolves with the largest peak seen, in MiB. */
export function samplePeakMemory(): { stop(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    for (const pid of dynamicProviderPids()) peak = Math.max(peak, peakKiB(pid));
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.round((peak / 1024) * 10) / 10;
    },
  };
}
