#!/usr/bin/env bash
# `pulumi up` of one stack, from the project's directory (deploy.yml runs it per stack).
#
# A self-managed backend (S3, PostgreSQL, a file system) locks a stack for an `up` with a lock file
# (`.pulumi/locks/<org>/<project>/<stack>/<uuid>.json`: user, host, pid, time) that never expires:
# a job killed mid-`up` (cancelled, its runner lost) leaves it, and every later `up` fails with
# "the stack is currently locked". So each run first records itself in a stack tag
# (`devplatform:deploy-run`: run id, attempt, runner host, start time), and when its `up` finds the
# stack locked it removes the lock (`pulumi cancel`) and deploys only if the lock is provably the
# previous run's and that run has ended:
#   - exactly one lock, taken on the host the previous run recorded, at or after its start;
#   - GitHub reports that run attempt `completed` (GET /repos/{repo}/actions/runs/{id}/attempts/{n},
#     the workflow's `actions: read`).
# Anything else (a live run, a `pulumi up` from a laptop, an unreachable API) is reported with what
# to do, and the lock stays. Nothing is lost with the killed run: the next `up` adopts, by serial
# number, the devices the killed one added but did not record.
set -uo pipefail

stack="${1:?usage: deploy-stack.sh STACK}"
tag="devplatform:deploy-run"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }
up() {
  pulumi up --yes --skip-preview --stack "$stack" 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}

previous="$(pulumi stack tag get "$tag" --stack "$stack" 2>/dev/null || true)"
this_run="run=${GITHUB_RUN_ID:?} attempt=${GITHUB_RUN_ATTEMPT:-1} host=$(hostname) started=$(date -u +%s)"
pulumi stack tag set "$tag" "$this_run" --stack "$stack" || exit 1

up && exit 0
code=$?
grep -q "the stack is currently locked" "$log" || exit "$code"

# "  <url>/.pulumi/locks/…/<uuid>.json: created by USER@HOST (pid PID) at TIME", one per lock.
mapfile -t locks < <(sed -n 's/.*: created by \(.*\)@\([^ ]*\) (pid \([0-9]*\)) at \([^ ]*\).*/\1 \2 \3 \4/p' "$log")
prev_run="$(field run "$previous")"
prev_attempt="$(field attempt "$previous")"
prev_host="$(field host "$previous")"
prev_started="$(field started "$previous")"
run_url="${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY}/actions/runs/${prev_run}/attempts/${prev_attempt}"

verdict="no earlier run of this workflow is recorded on the stack"
if [ "${#locks[@]}" -eq 1 ] && [ -n "$prev_run" ]; then
  read -r _user lock_host lock_pid lock_time <<<"${locks[0]}"
  lock_epoch="$(date -u -d "$lock_time" +%s 2>/dev/null || echo 0)"
  if [ "$lock_host" != "$prev_host" ] || [ "$lock_epoch" -lt "$prev_started" ]; then
    verdict="the lock was not taken by the last recorded run ($run_url, host $prev_host)"
  else
    # Node.js is on the runner for the program (setup-node); its fetch needs no curl or jq.
    status="$(node -e '
      fetch(process.argv[1], {
        headers: { authorization: `Bearer ${process.env.GITHUB_TOKEN ?? ""}`, accept: "application/vnd.github+json" },
      })
        .then(async (response) => {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const attempt = await response.json();
          console.log(`${attempt.status} ${attempt.conclusion ?? "none"}`);
        })
        .catch((error) => { console.error(`could not ask GitHub: ${error.message}`); process.exit(1); });
    ' "${GITHUB_API_URL:-https://api.github.com}/repos/$GITHUB_REPOSITORY/actions/runs/$prev_run/attempts/$prev_attempt")" \
      || status="unknown"
    if [ "${status%% *}" = "completed" ]; then
      echo "::warning title=Stack $stack was locked by a run that has ended::The lock on $stack (pid $lock_pid on $lock_host since $lock_time) was left by $run_url, which has ended (${status#* }). Removing it with \`pulumi cancel\` and deploying: this up adopts what that run added without recording it."
      pulumi cancel --yes --stack "$stack" || exit 1
      up
      exit $?
    fi
    verdict="the run that holds it, $run_url, has not ended (GitHub reports: $status)"
  fi
elif [ "${#locks[@]}" -gt 1 ]; then
  verdict="it holds ${#locks[@]} locks"
fi

# Not provably gone: leave the lock, and the stack's record of the run that holds it.
if [ -n "$previous" ]; then pulumi stack tag set "$tag" "$previous" --stack "$stack" >/dev/null; fi
echo "::error title=Stack $stack is locked::$stack is locked and the lock stays: $verdict. Wait for that run to end and re-run this job; if no \`pulumi\` command can still be running on $stack (see the lock's host and pid above), remove the lock with \`pulumi cancel --stack $stack\` and re-run this job."
exit "$code"
