#!/usr/bin/env bash
# Print a TCP port on 127.0.0.1 that nothing listens on, for a test server.
#
#   scripts/free-port.sh
#
# The port is drawn below the kernel's ephemeral range
# (net.ipv4.ip_local_port_range), never inside it: a port in that range can be
# taken at any moment as the local end of some outgoing connection, and a
# server asked to listen on several addresses then binds the others and starts
# without 127.0.0.1 (seen: a cable-pull test's server refusing 127.0.0.1).
# The caller still retries when its server cannot bind: another test may
# take the same port between this check and the bind.
set -euo pipefail
low=10000
high=32767
if read -r first _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null && [ "$first" -gt $((low + 1000)) ]; then
  high=$((first - 1))
fi
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 1 50); do
  port=$((low + (RANDOM * 32768 + RANDOM) % (high - low + 1)))
  listening "$port" || { echo "$port"; exit 0; }
done
echo "free-port: no free port found between $low and $high" >&2
exit 69
