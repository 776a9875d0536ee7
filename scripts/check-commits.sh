#!/usr/bin/env bash
# Check commit messages against CONTRIBUTING.md: a subject of at most 72
# characters, then a blank line, then a body saying why (a merge commit needs
# no body: the merged commits carry the why, and `git merge main` to pick up
# the lead's work writes none; its subject is checked). Prints each commit
# that breaks a rule, with the rule, and exits 1 if there is any; 0 when all
# pass. Nothing runs it automatically (no hook): run it before asking for a
# merge.
#
#   scripts/check-commits.sh                  # origin/main..HEAD, or HEAD's last 20 without origin/main
#   scripts/check-commits.sh main..HEAD       # what this branch adds to main
#   scripts/check-commits.sh -30 main         # main's last 30 commits
#
# RANGE is whatever `git rev-list` takes (A..B, -N REV, REV...). Exit codes:
# 0 all pass, 1 some commit breaks a rule, 64 a RANGE git does not understand.
set -euo pipefail
export LC_ALL=C.UTF-8  # ${#subject} counts characters, not bytes

max_subject=72

if [ $# -eq 0 ]; then
  if git rev-parse --verify --quiet origin/main >/dev/null; then
    set -- origin/main..HEAD
  else
    set -- --max-count=20 HEAD
  fi
fi

if ! commits=$(git rev-list "$@" 2>&1); then
  echo "check-commits: git rev-list $* failed: $commits" >&2
  echo "usage: $0 [RANGE]   (RANGE as git rev-list takes it, e.g. main..HEAD or -30 main)" >&2
  exit 64
fi

checked=0 bad=0 merges=0
for commit in $commits; do
  checked=$((checked + 1))
  is_merge=false
  if git rev-parse --verify --quiet "$commit^2" >/dev/null; then
    is_merge=true merges=$((merges + 1))
  fi
  message=$(git show --no-patch --format=%B "$commit")
  subject=$(printf '%s\n' "$message" | sed -n 1p)
  second=$(printf '%s\n' "$message" | sed -n 2p)
  body=$(printf '%s\n' "$message" | sed -n '3,$p' | grep -v '^[[:space:]]*$' || true)
  problems=()
  [ ${#subject} -le $max_subject ] || problems+=("subject is ${#subject} characters (at most $max_subject)")
  if [ -n "${second//[[:space:]]/}" ]; then
    problems+=("no blank line after the subject (a subject is one line)")
  elif [ -z "$body" ] && ! $is_merge; then
    problems+=("no body (a blank line, then why the change is made)")
  fi
  if [ ${#problems[@]} -gt 0 ]; then
    bad=$((bad + 1))
    short=$(git rev-parse --short "$commit")
    joined=$(printf '; %s' "${problems[@]}")
    echo "$short ${joined#; }: $subject"
  fi
done

if [ "$bad" -gt 0 ]; then
  echo "check-commits: $bad of $checked commits ($*) break the rules of CONTRIBUTING.md" >&2
  exit 1
fi
echo "check-commits: $checked commits ($*) pass ($merges of them merges, whose body is optional)"
