#!/usr/bin/env bash
# The vCluster config oracle, test/oracles/vcluster-config: runs vCluster v0.36.1's own config parser and
# validation (pkg/config.ParseConfigBytes: the strict decoder and ValidateConfigAndSetDefaults, what the
# vCluster binary runs at start-up) on vcluster.yaml files. Built and cached by scripts/go-oracle.sh.
#
# Usage: scripts/vcluster-oracle.sh [--print-path]
# Timings (2 cores): cold 5.5 min wall (7.4 min user + 2.7 min sys CPU) with the modules downloaded;
# downloading them (~500 modules) adds ~20 s here. Warm: 0.2 s.
exec bash "$(dirname "${BASH_SOURCE[0]}")/go-oracle.sh" vcluster-config vcluster-oracle v0.36.1 vcluster-config-oracle "$@"
