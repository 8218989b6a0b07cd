#!/usr/bin/env bash
# Plan review for any CI: synthesize the base branch and this change, compare their plans, and post the
# Markdown (bounded to one comment) to the pull request, updating the comment this script posted before
# instead of adding another. Works for a cdktf app (metalslice-plan.json beside cdk.tf.json) or a config.
# Then it gates the merge: exit 1 when the plan does not fit (after the comment is posted, so the pull request
# says why), and in GitHub Actions a job summary and one annotation per problem on the line at fault.
#
# Usage: examples/ci/plan-comment.sh [all|plan|post]
#   all (default)  plan, then post and gate, in one process.
#   plan           run the code under review (cdktf synth of the app, the metalslice it installed) and write the
#                  reports, the job summary and the annotations; never reads GITHUB_TOKEN; no gate.
#   post           post $OUT/comment.md and gate on $OUT/plan.json; runs no git, npm, npx or metalslice, only
#                  node (NODE) and curl. The Action runs `plan` without the token and `post` in a later step.
# Environment:
#   BASE_REF            base branch to compare with (e.g. main); its plan is made in a git worktree. A value git
#                       does not accept as a branch name (one starting with `-`, say) is refused: exit 2
#   METALSLICE_CONFIG   a config file to plan (`metalslice plan`); unset: `npx cdktf synth` the app
#   METALSLICE_STACK    with an app: the stack whose plan is reviewed (default: the first with a plan)
#   OUT                 where the reports go (default: plan-review/); keep it as a CI artifact
#   FULL_REPORT         where readers find the full report (default: "the plan-review artifact of this run")
#   METALSLICE          how to run the CLI (default: npx --no-install metalslice; in this repo: node bin/metalslice)
#   Posting (optional; without it the comment is only written to $OUT/comment.md):
#   GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name), PR_NUMBER, and GITHUB_API_URL (default https://api.github.com)
#   COMMENT_AUTHOR      the login the token posts as; default: GET /user's login, or github-actions[bot] for the
#                       GITHUB_TOKEN of GitHub Actions (which may not read /user). Only a comment by that login
#                       that starts with the marker is updated: anyone can write the marker into a comment.
#   NODE                the node that posts (default: node on PATH)
#   FAIL_ON_PROBLEMS    true (default): exit 1 when the plan does not fit; false: report only, exit 0
#   RENDER_CHARTS       auto (default): also write $OUT/plan.html and $OUT/charts/chart-N.svg with the charts drawn
#                       (Mermaid in headless Chromium, scripts/report-html.mjs) when Chromium and mermaid are found,
#                       else say why and go on; true: fail when they cannot be drawn; false: skip.
#                       REPORT_HTML, CHROMIUM, MERMAID_JS, MARKED_JS: where the renderer and its tools are
#   GITHUB_STEP_SUMMARY, GITHUB_ACTIONS, GITHUB_WORKSPACE: set by GitHub Actions; the summary gets the report
#                       and standard output gets ::error/::warning annotations (ANNOTATIONS=github elsewhere)
# Exit: 0 the plan fits; 1 it does not (FAIL_ON_PROBLEMS=true); the CLI's exit code when it cannot run (2, 70);
#       2 for a BASE_REF, GITHUB_REPOSITORY or PR_NUMBER of the wrong form;
#       70 when RENDER_CHARTS=true and the charts cannot be drawn.
set -euo pipefail

mode=${1:-all}
[[ "$mode" == all || "$mode" == plan || "$mode" == post ]] || { printf 'plan-comment: usage: %s [all|plan|post]\n' "$0" >&2; exit 2; }
out=${OUT:-plan-review}
marker='<!-- metalslice-plan-review -->'
mkdir -p "$out"
log() { printf 'plan-comment: %s\n' "$*" >&2; }
read -r -a metalslice <<<"${METALSLICE:-npx --no-install metalslice}"
node=${NODE:-node}
# The token stays in this shell only: no child (the app's synth, its metalslice, npm, git) gets it in its
# environment. In `plan` mode it is dropped altogether.
token=${GITHUB_TOKEN:-}
unset GITHUB_TOKEN GH_TOKEN
[[ "$mode" != plan ]] || token=

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

# The base branch's plan, for the comparison. BASE_REF reaches git only as a branch name git accepts, and
# after `--`: a value such as `--upload-pack=CMD` would otherwise be an option that runs CMD.
base_plan() {
  [[ -n "${BASE_REF:-}" ]] || return 0
  if [[ "$BASE_REF" == -* ]] || ! git check-ref-format --branch "$BASE_REF" >/dev/null 2>&1; then
    log "BASE_REF (${#BASE_REF} characters) is not a branch name git accepts: set it to the base branch, e.g. main"
    exit 2
  fi
  local base_dir
  base_dir=$(mktemp -d)
  git fetch --quiet origin -- "$BASE_REF" || true
  if git worktree add --quiet --detach -- "$base_dir" "origin/$BASE_REF" 2>/dev/null || git worktree add --quiet --detach -- "$base_dir" "refs/heads/$BASE_REF"; then
    (cd "$base_dir" && { [[ ! -f package-lock.json ]] || npm ci --no-audit --no-fund --silent; }) && plan_of "$base_dir" "$out/base-plan.json" && previous=(--previous "$out/base-plan.json")
    git worktree remove --force -- "$base_dir"
  else
    log "cannot check out $BASE_REF: the report shows this plan without a comparison"
  fi
}

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

# Everything that runs the code under review: the plans, the reports, the summary and the annotations.
plan_and_report() {
  previous=()
  plan_of . "$out/plan.json"
  base_plan
  local full=${FULL_REPORT:-the plan-review artifact of this run}
  ms report "$out/plan.json" "${previous[@]}" --markdown --max-chars 0 >"$out/plan.md"
  {
    echo "$marker"
    ms report "$out/plan.json" "${previous[@]}" --markdown --max-chars 60000 --full-report "$full"
  } >"$out/comment.md"
  log "wrote $out/comment.md ($(wc -c <"$out/comment.md") bytes), $out/plan.md and $out/plan.json"
  draw_charts
  # The job summary (GitHub allows 1 MiB per step; the report is cut well below it, its tables first).
  if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
    ms report "$out/plan.json" "${previous[@]}" --markdown --max-chars 500000 --full-report "$full" >>"$GITHUB_STEP_SUMMARY"
    log "wrote the job summary"
  fi
  # One annotation per problem and warning, at its file:line:column (GitHub reads them from standard output).
  if [[ "${GITHUB_ACTIONS:-}" == true || "${ANNOTATIONS:-}" == github ]]; then
    ms report "$out/plan.json" -o github
  fi
}

# One GitHub API call: the token goes to curl on a file descriptor, never on its command line.
github() {
  local method=$1 url=$2
  shift 2
  curl -sS -X "$method" -H @<(printf 'Authorization: Bearer %s\n' "$token") -H 'Accept: application/vnd.github+json' "$@" "$url"
}

# The login the token posts as (see COMMENT_AUTHOR above); nothing when it cannot be told.
poster_login() {
  if [[ -n "${COMMENT_AUTHOR:-}" ]]; then
    printf '%s' "$COMMENT_AUTHOR"
    return
  fi
  local answer status
  answer=$(github GET "$api/user" -w '\n%{http_code}') || return 0
  status=${answer##*$'\n'}
  if [[ "$status" == 200 ]]; then
    printf '%s' "${answer%$'\n'*}" | "$node" -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const u=JSON.parse(s);if(typeof u.login==="string")process.stdout.write(u.login)})'
  elif [[ "$status" == 403 && "${GITHUB_ACTIONS:-}" == true ]]; then
    # GitHub Actions' GITHUB_TOKEN is an app installation token: /user refuses it, and it posts as this bot.
    printf 'github-actions[bot]'
  fi
}

# The id of the comment this script posted before: written by `login` and starting with the marker, looked for
# on every page (100 comments a page, at most 50 pages).
find_comment() {
  local login=$1 page found
  for ((page = 1; page <= 50; page++)); do
    found=$(github GET "$api/repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments?per_page=100&page=$page" -f |
      "$node" -e '
        let s = "";
        process.stdin.on("data", (d) => (s += d)).on("end", () => {
          const list = JSON.parse(s);
          const ours = list.find((c) => c.user && c.user.login === process.argv[1] && typeof c.body === "string" && c.body.startsWith(process.argv[2]));
          process.stdout.write(ours ? `id ${ours.id}` : list.length < 100 ? "end" : "more");
        });' "$login" "$marker")
    case "$found" in
      "id "*) printf '%s' "${found#id }"; return ;;
      end) return ;;
    esac
  done
  log "read 5,000 comments without finding ours: posting a new one"
}

# Posts $out/comment.md to the pull request, or updates the comment this script posted before.
post_comment() {
  if [[ -z "$token" || -z "${GITHUB_REPOSITORY:-}" || -z "${PR_NUMBER:-}" ]]; then
    log "GITHUB_TOKEN, GITHUB_REPOSITORY or PR_NUMBER unset: not posting"
    return 0
  fi
  [[ "$GITHUB_REPOSITORY" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ && "$PR_NUMBER" =~ ^[0-9]+$ ]] || { log "GITHUB_REPOSITORY must be OWNER/NAME and PR_NUMBER a number"; exit 2; }
  [[ -f "$out/comment.md" ]] || { log "no $out/comment.md: run the plan first"; exit 2; }
  api=${GITHUB_API_URL:-https://api.github.com}
  "$node" -e 'process.stdout.write(JSON.stringify({ body: require("fs").readFileSync(process.argv[1], "utf8") }))' "$out/comment.md" >"$out/comment.json"
  local login existing=
  login=$(poster_login)
  if [[ -z "$login" ]]; then
    log "cannot tell which login the token posts as (GET /user refused it; set COMMENT_AUTHOR): posting a new comment"
  else
    existing=$(find_comment "$login")
  fi
  if [[ "$existing" =~ ^[0-9]+$ ]]; then
    github PATCH "$api/repos/$GITHUB_REPOSITORY/issues/comments/$existing" -f --data-binary @"$out/comment.json" >/dev/null
    log "updated comment $existing"
  else
    github POST "$api/repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -f --data-binary @"$out/comment.json" >/dev/null
    log "posted a new comment"
  fi
}

# The gate: a plan that does not fit fails the check, so a required check blocks the merge.
gate() {
  local fits
  [[ -f "$out/plan.json" ]] || { log "no $out/plan.json: run the plan first"; exit 2; }
  fits=$("$node" -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).ok === true))' "$out/plan.json")
  [[ "$fits" != true ]] || return 0
  if [[ "${FAIL_ON_PROBLEMS:-true}" == false ]]; then
    log "the plan does not fit; FAIL_ON_PROBLEMS=false: exit 0"
  else
    log "the plan does not fit: failing the check (the comment, summary and annotations say why)"
    exit 1
  fi
}

[[ "$mode" == post ]] || plan_and_report
[[ "$mode" == plan ]] && exit 0
post_comment
gate
