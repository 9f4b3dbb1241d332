// The pack's program: run-pack (or a language host's RunPlugin, through run-policy-pack) loads this
// folder, and the compiled pack serves its policies to the engine that started it. @pulumi/policy
// reads the pack's version from the working directory's package.json: the package's own, so that
// the pack's version is the package's.
process.chdir(require("node:path").join(__dirname, ".."));
require("../dist/policy/pack");
