#!/usr/bin/env bash
# `pulumi up` of one stack, from the project's directory (deploy.yml runs it per stack), with the
# policy pack (POLICY_PACK, POLICY_CONFIG): a value known only at apply is checked at the `up`.
#
# A self-managed backend (S3, PostgreSQL, a file system) locks a stack for an `up` with a lock file
# (`.pulumi/locks/<org>/<project>/<stack>/<uuid>.json`: user, host, pid, time) that never expires:
# a job killed mid-`up` (cancelled, its runner lost) leaves it, and every later `up` fails with
# "the stack is currently locked". So each run keeps a LEASE beside the lock, in the stack tag
# `devplatform:deploy-run` (run id, attempt, runner host, start time, a random holder id):
#   - written before its `up`, and renewed every LEASE_SECONDS/5 while the `up` runs;
#   - when a renewal has failed for long enough that the lease could lapse, the run kills its own
#     `up` (and every process it started) first: once a lease has gone unrenewed for LEASE_SECONDS,
#     its holder cannot write any more.
# An `up` that finds the stack locked removes the lock (`pulumi cancel`) only when all hold:
#   - exactly one lock, taken on the host the previous run recorded, at or after its start;
#   - GitHub reports that run attempt `completed` (the workflow's `actions: read`);
#   - the lease has expired: after this run wrote its own record, nobody renewed the tag for
#     LEASE_SECONDS (watched on this runner's clock, so the two runners' clocks need not agree).
# Anything else (a live holder, whatever GitHub says; a `pulumi up` from a laptop, which keeps no
# lease; an unreachable API) is reported with what to do, and the lock stays. Nothing is lost with
# a killed run: the next `up` adopts, by serial number, the devices the killed one added but did
# not record.
set -uo pipefail

stack="${1:?usage: deploy-stack.sh STACK}"
tag="devplatform:deploy-run"
lease_seconds="${DEPLOY_LEASE_SECONDS:-120}"
renew_every=$((lease_seconds / 5))
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

[ "$renew_every" -ge 2 ] || { echo "::error::DEPLOY_LEASE_SECONDS must be 10 or more (got $lease_seconds)"; exit 2; }
policy_args=()
if [ -n "${POLICY_PACK:-}" ]; then
  policy_args=(--policy-pack "$POLICY_PACK")
  [ -z "${POLICY_CONFIG:-}" ] || policy_args+=(--policy-pack-config "$POLICY_CONFIG")
fi

field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }
holder="$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n')"
started="$(date -u +%s)"
record() { echo "run=${GITHUB_RUN_ID:?} attempt=${GITHUB_RUN_ATTEMPT:-1} host=$(hostname) started=$started holder=$holder renewal=$1"; }
# A renewal that takes longer than the renewal period counts as failed.
set_tag() { timeout "$renew_every" pulumi stack tag set "$tag" "$1" --stack "$stack" >/dev/null 2>&1; }

# Renews the lease while process group $1 (the `up`) runs; kills that group before the lease can
# lapse when renewals keep failing (the next check may come 2 × renew_every later).
renew_beside() {
  local group="$1" last=$SECONDS n=0
  while kill -0 "$group" 2>/dev/null; do
    sleep "$renew_every"
    n=$((n + 1))
    if set_tag "$(record "$n")"; then
      last=$SECONDS
    elif ((SECONDS - last + 2 * renew_every >= lease_seconds)); then
      echo "::error title=Stack $stack: lease not renewed::The lease on $stack could not be renewed for $((SECONDS - last)) s: stopping this \`up\` before the lease (${lease_seconds} s) lapses. The next run adopts what it added."
      kill -KILL -- "-$group" 2>/dev/null
      return
    fi
  done
}

# `pulumi up` in a process group of its own (all it starts can be killed at once), the lease
# renewed beside it, its output shown as it runs and kept for the lock's details.
up() {
  : >"$log"
  setsid pulumi up --yes --skip-preview --stack "$stack" "${policy_args[@]}" >"$log" 2>&1 &
  local group=$!
  tail -n +1 -f --pid="$group" "$log" &
  local tailer=$!
  renew_beside "$group" &
  local renewer=$!
  wait "$group"
  local code=$?
  kill "$renewer" 2>/dev/null
  wait "$renewer" 2>/dev/null
  wait "$tailer" 2>/dev/null
  return "$code"
}

previous="$(pulumi stack tag get "$tag" --stack "$stack" 2>/dev/null || true)"
mine="$(record 0)"
pulumi stack tag set "$tag" "$mine" --stack "$stack" >/dev/null || { echo "::error::could not write the lease tag $tag on $stack"; exit 1; }
written=$SECONDS

up && exit 0
code=$?
grep -q "the stack is currently locked" "$log" || exit "$code"

# "  <url>/.pulumi/locks/…/<uuid>.json: created by USER@HOST (pid PID) at TIME", one per lock.
mapfile -t locks < <(sed -n 's/.*: created by \(.*\)@\([^ ]*\) (pid \([0-9]*\)) at \([^ ]*\).*/\1 \2 \3 \4/p' "$log")
prev_run="$(field run "$previous")"
prev_attempt="$(field attempt "$previous")"
prev_host="$(field host "$previous")"
prev_started="$(field started "$previous")"
prev_holder="$(field holder "$previous")"
run_url="${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY}/actions/runs/${prev_run}/attempts/${prev_attempt}"

# Whether GitHub reports the previous run attempt ended ("completed CONCLUSION"), else why not.
github_status() {
  # Node.js is on the runner for the program (setup-node); its fetch needs no curl or jq.
  node -e '
    fetch(process.argv[1], {
      headers: { authorization: `Bearer ${process.env.GITHUB_TOKEN ?? ""}`, accept: "application/vnd.github+json" },
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const attempt = await response.json();
        console.log(`${attempt.status} ${attempt.conclusion ?? "none"}`);
      })
      .catch((error) => { console.error(`could not ask GitHub: ${error.message}`); process.exit(1); });
  ' "${GITHUB_API_URL:-https://api.github.com}/repos/$GITHUB_REPOSITORY/actions/runs/$prev_run/attempts/$prev_attempt" \
    || echo "unknown"
}

# Watches the tag until LEASE_SECONDS have passed since this run wrote its record (plus one renewal
# period): any other value in it means the holder is alive and renewing.
lease_expired() {
  local now
  while ((SECONDS - written <= lease_seconds + renew_every)); do
    now="$(pulumi stack tag get "$tag" --stack "$stack" 2>/dev/null)" || { lease_verdict="could not read the lease tag $tag"; return 1; }
    if [ "$(field holder "$now")" != "$holder" ]; then
      lease_verdict="its lease was renewed while this run waited ($(field host "$now"), run $(field run "$now"), renewal $(field renewal "$now")): its \`up\` is still running, whatever GitHub reports"
      return 1
    fi
    sleep $((renew_every / 2 > 0 ? renew_every / 2 : 1))
  done
}

verdict="no earlier run of this workflow is recorded on the stack"
restore=true
if [ "${#locks[@]}" -eq 1 ] && [ -n "$prev_run" ] && [ -n "$prev_holder" ]; then
  read -r _user lock_host lock_pid lock_time <<<"${locks[0]}"
  lock_epoch="$(date -u -d "$lock_time" +%s 2>/dev/null || echo 0)"
  if [ "$lock_host" != "$prev_host" ] || [ "$lock_epoch" -lt "$prev_started" ]; then
    verdict="the lock was not taken by the last recorded run ($run_url, host $prev_host)"
  else
    status="$(github_status)"
    if [ "${status%% *}" != "completed" ]; then
      verdict="the run that holds it, $run_url, has not ended (GitHub reports: $status)"
    else
      echo "GitHub reports $run_url ended (${status#* }); waiting until its lease on $stack has expired (${lease_seconds} s unrenewed) before removing its lock."
      if lease_expired; then
        echo "::warning title=Stack $stack was locked by a run that has ended::The lock on $stack (pid $lock_pid on $lock_host since $lock_time) was left by $run_url, which has ended (${status#* }) and whose lease has expired. Removing it with \`pulumi cancel\` and deploying: this up adopts what that run added without recording it."
        pulumi cancel --yes --stack "$stack" || exit 1
        up
        exit $?
      fi
      verdict="the run that holds it, $run_url, is reported ended by GitHub (${status#* }) but $lease_verdict"
      # The live holder has rewritten the tag: it is its record, not ours, to keep.
      restore=false
    fi
  fi
elif [ "${#locks[@]}" -gt 1 ]; then
  verdict="it holds ${#locks[@]} locks"
elif [ "${#locks[@]}" -eq 1 ] && [ -n "$prev_run" ]; then
  verdict="the run that holds it, $run_url, kept no lease (an older deploy-stack.sh)"
fi

# Not provably gone: leave the lock, and the stack's record of the run that holds it.
if $restore && [ -n "$previous" ]; then pulumi stack tag set "$tag" "$previous" --stack "$stack" >/dev/null; fi
echo "::error title=Stack $stack is locked::$stack is locked and the lock stays: $verdict. Wait for that run to end and re-run this job; if no \`pulumi\` command can still be running on $stack (see the lock's host and pid above), remove the lock with \`pulumi cancel --stack $stack\` and re-run this job."
exit "$code"
