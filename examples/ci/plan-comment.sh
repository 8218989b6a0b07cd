#!/usr/bin/env bash
# Plan review for any CI: synthesize the base branch and this change, compare their plans, and post the
# Markdown (bounded to one comment) to the pull request, updating the comment this script posted before
# instead of adding another. Works for a cdktf app (metalslice-plan.json beside cdk.tf.json) or a config.
# Then it gates the merge: exit 1 when the plan does not fit (after the comment is posted, so the pull request
# says why), and in GitHub Actions a job summary and one annotation per problem on the line at fault.
#
# Usage: examples/ci/plan-comment.sh
# Environment:
#   BASE_REF            base branch to compare with (e.g. main); its plan is made in a git worktree
#   METALSLICE_CONFIG   a config file to plan (`metalslice plan`); unset: `npx cdktf synth` the app
#   METALSLICE_STACK    with an app: the stack whose plan is reviewed (default: the first with a plan)
#   OUT                 where the reports go (default: plan-review/); keep it as a CI artifact
#   FULL_REPORT         where readers find the full report (default: "the plan-review artifact of this run")
#   METALSLICE          how to run the CLI (default: npx --no-install metalslice; in this repo: node bin/metalslice)
#   Posting (optional; without it the comment is only written to $OUT/comment.md):
#   GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name), PR_NUMBER, and GITHUB_API_URL (default https://api.github.com)
#   FAIL_ON_PROBLEMS    true (default): exit 1 when the plan does not fit; false: report only, exit 0
#   RENDER_CHARTS       auto (default): also write $OUT/plan.html and $OUT/charts/chart-N.svg with the charts drawn
#                       (Mermaid in headless Chromium, scripts/report-html.mjs) when Chromium and mermaid are found,
#                       else say why and go on; true: fail when they cannot be drawn; false: skip.
#                       REPORT_HTML, CHROMIUM, MERMAID_JS, MARKED_JS: where the renderer and its tools are
#   GITHUB_STEP_SUMMARY, GITHUB_ACTIONS, GITHUB_WORKSPACE: set by GitHub Actions; the summary gets the report
#                       and standard output gets ::error/::warning annotations (ANNOTATIONS=github elsewhere)
# Exit: 0 the plan fits; 1 it does not (FAIL_ON_PROBLEMS=true); the CLI's exit code when it cannot run (2, 70);
#       70 when RENDER_CHARTS=true and the charts cannot be drawn.
set -euo pipefail

out=${OUT:-plan-review}
marker='<!-- metalslice-plan-review -->'
mkdir -p "$out"
log() { printf 'plan-comment: %s\n' "$*" >&2; }
read -r -a metalslice <<<"${METALSLICE:-npx --no-install metalslice}"

# Runs the CLI; exit 1 (the plan does not fit) is a report like any other, anything else stops the script.
ms() {
  local rc=0
  "${metalslice[@]}" "$@" || rc=$?
  [[ $rc -le 1 ]] || { log "metalslice $1 failed (exit $rc)"; exit "$rc"; }
}

# The plan JSON of the checkout in $1, written to $2 (exit 0 even when the plan does not fit: the report says so).
plan_of() {
  local dir=$1 dest=$2
  if [[ -n "${METALSLICE_CONFIG:-}" ]]; then
    (cd "$dir" && ms plan "$METALSLICE_CONFIG" --json) >"$dest"
  else
    (cd "$dir" && npx --no-install cdktf synth >&2) || true
    local found
    found=$(find "$dir/cdktf.out/stacks/${METALSLICE_STACK:-*}" -maxdepth 1 -name metalslice-plan.json 2>/dev/null | sort | head -n 1)
    [[ -n "$found" ]] && cp "$found" "$dest" || echo '{"ok": false, "kubevirtVersion": "", "errors": [{"path": "synth", "message": "no metalslice-plan.json was written"}], "warnings": [], "fleets": [], "quotas": [], "pools": []}' >"$dest"
  fi
}

plan_of . "$out/plan.json"
previous=()
if [[ -n "${BASE_REF:-}" ]]; then
  base_dir=$(mktemp -d)
  git fetch --quiet origin "$BASE_REF" || true
  if git worktree add --quiet --detach "$base_dir" "origin/$BASE_REF" 2>/dev/null || git worktree add --quiet --detach "$base_dir" "$BASE_REF"; then
    (cd "$base_dir" && { [[ ! -f package-lock.json ]] || npm ci --no-audit --no-fund --silent; }) && plan_of "$base_dir" "$out/base-plan.json" && previous=(--previous "$out/base-plan.json")
    git worktree remove --force "$base_dir"
  else
    log "cannot check out $BASE_REF: the report shows this plan without a comparison"
  fi
fi

full=${FULL_REPORT:-the plan-review artifact of this run}
ms report "$out/plan.json" "${previous[@]}" --markdown --max-chars 0 >"$out/plan.md"
{
  echo "$marker"
  ms report "$out/plan.json" "${previous[@]}" --markdown --max-chars 60000 --full-report "$full"
} >"$out/comment.md"
log "wrote $out/comment.md ($(wc -c <"$out/comment.md") bytes), $out/plan.md and $out/plan.json"

# The full report as a page whose charts are drawn (SVG), for the artifact: GitHub draws the comment's charts,
# a downloaded plan.md shows their source.
draw_charts() {
  local mode=${RENDER_CHARTS:-auto} renderer=${REPORT_HTML:-$(dirname "${BASH_SOURCE[0]}")/../../scripts/report-html.mjs} err
  [[ "$mode" != false ]] || return 0
  if [[ -f "$renderer" ]] && err=$(node "$renderer" "$out/plan.md" "$out/plan.html" --charts "$out/charts" 2>&1); then
    log "drew the charts: $out/plan.html and $out/charts/"
    return 0
  fi
  [[ -f "$renderer" ]] || err="$renderer not found (set REPORT_HTML)"
  log "charts not drawn: ${err:-the renderer failed}"
  [[ "$mode" != true ]] || exit 70
}
draw_charts

# Posts $out/comment.md to the pull request, or updates the comment this script posted before.
post_comment() {
  if [[ -z "${GITHUB_TOKEN:-}" || -z "${GITHUB_REPOSITORY:-}" || -z "${PR_NUMBER:-}" ]]; then
    log "GITHUB_TOKEN, GITHUB_REPOSITORY or PR_NUMBER unset: not posting"
    return 0
  fi
  local api=${GITHUB_API_URL:-https://api.github.com}
  local auth=(-H "Authorization: Bearer $GITHUB_TOKEN" -H 'Accept: application/vnd.github+json')
  local body existing
  body=$(node -e 'process.stdout.write(JSON.stringify({ body: require("fs").readFileSync(process.argv[1], "utf8") }))' "$out/comment.md")
  # The comment this script posted before, found by its marker (first 100 comments).
  existing=$(curl -fsS "${auth[@]}" "$api/repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments?per_page=100" |
    node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const c=JSON.parse(s).find((x)=>x.body.startsWith(process.argv[1]));process.stdout.write(c?String(c.id):"")})' "$marker")
  if [[ -n "$existing" ]]; then
    curl -fsS -X PATCH "${auth[@]}" "$api/repos/$GITHUB_REPOSITORY/issues/comments/$existing" -d "$body" >/dev/null
    log "updated comment $existing"
  else
    curl -fsS -X POST "${auth[@]}" "$api/repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -d "$body" >/dev/null
    log "posted a new comment"
  fi
}
post_comment

# The job summary (GitHub allows 1 MiB per step; the report is cut well below it, its tables first).
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  ms report "$out/plan.json" "${previous[@]}" --markdown --max-chars 500000 --full-report "$full" >>"$GITHUB_STEP_SUMMARY"
  log "wrote the job summary"
fi
# One annotation per problem and warning, at its file:line:column (GitHub reads them from standard output).
if [[ "${GITHUB_ACTIONS:-}" == true || "${ANNOTATIONS:-}" == github ]]; then
  ms report "$out/plan.json" -o github
fi

# The gate: a plan that does not fit fails the check, so a required check blocks the merge.
fits=$(node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).ok === true))' "$out/plan.json")
if [[ "$fits" != true ]]; then
  if [[ "${FAIL_ON_PROBLEMS:-true}" == false ]]; then
    log "the plan does not fit; FAIL_ON_PROBLEMS=false: exit 0"
  else
    log "the plan does not fit: failing the check (the comment, summary and annotations say why)"
    exit 1
  fi
fi
