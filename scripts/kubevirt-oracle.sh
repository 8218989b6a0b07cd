#!/usr/bin/env bash
# The KubeVirt launcher-pod oracle, test/oracles/kubevirt-launcher: runs KubeVirt v1.9.0's own webhooks,
# VM->VMI conversion and virt-launcher pod renderer and prints the pod's requests/limits as kube-scheduler
# counts them. Built and cached by scripts/go-oracle.sh; prints the binary's path.
#
# Usage: scripts/kubevirt-oracle.sh [--print-path]
# Timings (2 cores, module cache already downloaded, empty Go build cache): cold 7-12 min (11.4 min wall
# while sharing the cores with another build and jest); downloading the modules first adds ~1 min.
# Disk: 103 MB binary, ~1.3 GB Go build cache.
exec bash "$(dirname "${BASH_SOURCE[0]}")/go-oracle.sh" kubevirt-launcher kubevirt-oracle v1.9.0 kubevirt-launcher-oracle "$@"
