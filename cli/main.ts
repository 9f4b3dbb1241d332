#!/usr/bin/env node
/**
 * The `devplatform` bin: `devplatform export …` and `devplatform emulator …` (see `run.ts`).
 * Exit codes: 0 done, 1 failed, 2 usage error.
 */
import { runDevplatform } from "./run";

void runDevplatform(process.argv.slice(2));
