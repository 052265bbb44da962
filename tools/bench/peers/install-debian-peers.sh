#!/bin/sh
# Installs the Python peers of the algorithm-library bench (igraph and NetworkX) from
# Debian's packages, on demand: only when /usr/bin/python3 cannot import them yet and apt-get
# can be used (as root). Prints one line saying what it did or why it could not; never fails
# the bench (the bench skips a peer it cannot import, with that reason).
PY=/usr/bin/python3
if [ -x "$PY" ] && "$PY" -c "import igraph, networkx, numpy" 2>/dev/null; then
  echo "python peers: present"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "python peers: not installed (no apt-get on this machine)"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "python peers: not installed (apt-get needs root; run: apt-get install python3-igraph python3-networkx)"
  exit 0
fi
if apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-igraph python3-networkx python3-numpy python3-scipy >/dev/null 2>&1; then
  echo "python peers: installed python3-igraph, python3-networkx"
else
  echo "python peers: not installed (apt-get failed)"
fi
exit 0
