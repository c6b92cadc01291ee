#!/bin/sh
# Runs a command with a Node.js this product supports first on PATH: the machine's when it is new
# enough, otherwise the one scripts/node-runtime.mjs brings into .runtime/ (saying so once). The
# command replaces this shell (exec): a server started through it is one process, stopped by PID.
#   sh scripts/with-node.sh node scripts/start.mjs
set -e
folder=$(node "$(dirname "$0")/node-runtime.mjs")
PATH="$folder:$PATH"
export PATH
exec "$@"
