// The pack's program: run-policy-pack (through run-pack, or a language host's RunPlugin) loads this
// folder, and the compiled pack serves its policies to the engine that started it.
require("../dist/policy/pack");
