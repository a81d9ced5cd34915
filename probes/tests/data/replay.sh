# Helpers sourced by the recorded-machine scripts in machines/*/bin. They print real captured
# output from tests/fixtures/probe-outputs (fixture metadata lines "# " are dropped).
FIXTURES="${PERFGATE_FIXTURES:-$(dirname "$0")/../../../../../../tests/fixtures/probe-outputs}"

# fixture FILE: the whole recorded output.
fixture() { grep -v '^# ' "$FIXTURES/$1"; }

# fixture_block FILE START END: the lines after the first line matching START, up to (not
# including) the next line matching END. The start line itself is not printed.
fixture_block() {
    awk -v s="$2" -v e="$3" 'f && $0 ~ e { exit } f && !/^# / { print } !f && $0 ~ s { f = 1 }' "$FIXTURES/$1"
}
