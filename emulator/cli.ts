#!/usr/bin/env node
/**
 * `devplatform-emulator`: the emulator's own bin, the same as `devplatform emulator` (see
 * `cli-main.ts`). The first line on stdout is the listening URL, for scripts to read.
 */
import { runEmulatorCli } from "./cli-main";

void runEmulatorCli(process.argv.slice(2));
