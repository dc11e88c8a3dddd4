#!/bin/sh
# The image's entry: `entry.sh <name> [args]` runs the process that `npm run start:<name>` runs
# (command-service, query-service, projections, gateway, relay, replicated, …), as PID 1's only
# child-free process: `node --import tsx <file>` replaces this shell, so SIGTERM reaches the
# service itself (npm would stand between them). `forum` is `npm start` without its web build
# (the image holds the built apps). The names come from the root package.json, so a service
# added there needs no change here.
set -eu
# the repository's root: /app in the image
cd "$(dirname "$0")/../.."
name="${1:-}"
if [ -z "$name" ]; then
  echo "usage: entry.sh <service> (a start:<service> script of package.json, or forum)" >&2
  exit 64
fi
shift
if [ "$name" = forum ]; then
  exec node --import tsx infra/src/embedded/main.ts "$@"
fi
# the script's command, e.g. "tsx infra/src/services/command-service.ts"
command=$(node -p "(require('./package.json').scripts ?? {})['start:' + process.argv[1]] ?? ''" "$name")
case "$command" in
  "tsx "*)
    # shellcheck disable=SC2086 # the script's words, split as npm would split them
    exec node --import tsx ${command#tsx } "$@"
    ;;
  "")
    echo "entry.sh: no script start:$name in package.json; the services are:" >&2
    node -p "Object.keys(require('./package.json').scripts).filter((s) => s.startsWith('start:')).map((s) => '  ' + s.slice(6)).join('\n')" >&2
    exit 64
    ;;
  *)
    echo "entry.sh: start:$name is \"$command\", not a tsx entry this image can run directly" >&2
    exit 64
    ;;
esac
