#!/bin/sh
# The image's entry: `entry.sh <name> [args]` runs the compiled process that `npm run start:<name>`
# runs (command-service, query-service, projections, gateway, relay, replicated, …) and
# `entry.sh forumctl <command>` the operator's CLI, as PID 1's only child-free process: the
# script's last command, `node --conditions=forum-compiled infra/dist/<file>.js`, replaces this
# shell, so SIGTERM reaches the service itself (npm would stand between them). The condition makes
# the workspaces' imports resolve to their compiled dist/ (docs/building.md); what comes before that
# command in the script (`npm run build`, the web apps' build) was done when the image was built.
# `forum` is `npm start`'s everything-in-one-process, compiled. The names come from the root package.json, so a service
# added there needs no change here.
set -eu
# the repository's root: /app in the image
cd "$(dirname "$0")/../.."
name="${1:-}"
if [ -z "$name" ]; then
  echo "usage: entry.sh <service> (a start:<service> script of package.json, forumctl, or forum)" >&2
  exit 64
fi
shift
if [ "$name" = forum ]; then
  exec node --conditions=forum-compiled infra/dist/embedded/main.js "$@"
fi
script="start:$name"
if [ "$name" = forumctl ]; then
  script=forumctl
fi
# the script's last command, e.g. "node --conditions=forum-compiled infra/dist/services/projections.js"
# of "npm run --silent build && node --conditions=forum-compiled infra/dist/services/projections.js"
command=$(node -p "((require('./package.json').scripts ?? {})[process.argv[1]] ?? '').split('&&').at(-1).trim()" "$script")
case "$command" in
  "node --conditions=forum-compiled infra/dist/"*.js)
    # shellcheck disable=SC2086 # the script's words, split as npm would split them
    exec $command "$@"
    ;;
  "")
    echo "entry.sh: no script $script in package.json; the services are:" >&2
    node -p "Object.keys(require('./package.json').scripts).filter((s) => s.startsWith('start:')).map((s) => '  ' + s.slice(6)).join('\n')" >&2
    exit 64
    ;;
  *)
    echo "entry.sh: $script ends with \"$command\", not a compiled entry (node --conditions=forum-compiled infra/dist/….js) this image can run" >&2
    exit 64
    ;;
esac
